import { fileURLToPath } from "node:url";
import { PluginLoadError, loadPlugin, parseUseSpec } from "@deerflow/kernel";
import { SandboxError } from "./errors.js";
import type { SandboxProvider } from "./provider.js";

/** Configuration that selects a provider implementation. */
export interface ProviderSpec {
  /**
   * `"<module specifier>:<export name>"`, e.g. `"@deerflow/sandbox:LocalSandboxProvider"`
   * or `"./my-provider.js:createProvider"`. The export is a class (constructed with
   * `options`) or a factory function (called with `options`, may be async).
   */
  readonly use: string;
  /** Passed to the constructor or factory (`{}` when absent). */
  readonly options?: unknown;
}

/**
 * Splits `use` at its last `:`; the module part may itself contain colons (`node:`...).
 *
 * @throws SandboxError `CONFIG_INVALID` when either part is missing or the export name is not an identifier.
 */
export function parseProviderUse(use: string): { specifier: string; exportName: string } {
  try {
    return parseUseSpec(use);
  } catch (cause) {
    throw new SandboxError("CONFIG_INVALID", `Invalid provider "use": '${use}'. Expected "<module>:<export name>".`, {
      cause,
    });
  }
}

/** True when `value` has the four methods of {@link SandboxProvider}. */
export function isSandboxProvider(value: unknown): value is SandboxProvider {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return ["acquire", "get", "release", "shutdown"].every((m) => typeof v[m] === "function");
}

/** The sandbox's own error (and texts) for what the kernel's plugin loader refused. */
function providerError(err: PluginLoadError, spec: ProviderSpec, specifier: string, exportName: string): unknown {
  switch (err.stage) {
    case "instance":
      // A constructor or factory that throws keeps its own error; a wrong result is a configuration error.
      if (err.code === "PLUGIN_LOAD_FAILED") return err.cause;
      return new SandboxError(
        "CONFIG_INVALID",
        `'${spec.use}' did not produce a SandboxProvider (acquire, get, release, shutdown).`,
        { cause: err },
      );
    case "export":
      return new SandboxError(
        "CONFIG_INVALID",
        `Module '${specifier}' has no exported class or function '${exportName}'.`,
        { cause: err },
      );
    default: {
      const reason = err.cause instanceof Error ? err.cause.message : err.message;
      return new SandboxError("CONFIG_INVALID", `Cannot load sandbox provider module '${specifier}': ${reason}`, {
        cause: err,
      });
    }
  }
}

/**
 * Loads the provider a configuration names, with the kernel's `use:` loader:
 * relative specifiers resolve against `baseUrl` (default: the process's
 * working directory), package names from that folder's `node_modules`, then
 * from this package's own dependencies.
 *
 * @throws SandboxError `CONFIG_INVALID` when the module or export is missing,
 *   or the export does not produce a {@link SandboxProvider}; a constructor or
 *   factory that throws rejects with its own error.
 * @example
 * ```ts
 * const provider = await loadSandboxProvider({ use: "@deerflow/sandbox:createLocalSandboxProvider", options: { baseDir: ".deer-flow" } });
 * ```
 */
export async function loadSandboxProvider(spec: ProviderSpec, baseUrl?: string | URL): Promise<SandboxProvider> {
  const { specifier, exportName } = parseProviderUse(spec.use);
  try {
    return await loadPlugin(spec.use, {
      ...(baseUrl === undefined ? {} : { cwd: fileURLToPath(new URL(".", baseUrl)) }),
      options: spec.options,
      purpose: "sandbox provider",
      shape: "acquire, get, release, shutdown",
      check: isSandboxProvider,
      importModule: (moduleSpecifier) => import(moduleSpecifier),
      importerLabel: "@deerflow/sandbox",
    });
  } catch (err) {
    if (PluginLoadError.isInstance(err)) throw providerError(err, spec, specifier, exportName);
    throw err;
  }
}
