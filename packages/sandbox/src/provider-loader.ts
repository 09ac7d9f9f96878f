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
  /** Passed to the constructor or factory. */
  readonly options?: unknown;
}

/** Splits `use` at its last `:`; the module part may itself contain colons (`node:`...). */
export function parseProviderUse(use: string): { specifier: string; exportName: string } {
  const at = use.lastIndexOf(":");
  const specifier = at > 0 ? use.slice(0, at).trim() : "";
  const exportName = at > 0 ? use.slice(at + 1).trim() : "";
  if (!specifier || !/^[A-Za-z_$][\w$]*$/.test(exportName)) {
    throw new SandboxError("CONFIG_INVALID", `Invalid provider "use": '${use}'. Expected "<module>:<export name>".`);
  }
  return { specifier, exportName };
}

/** True when `value` has the four methods of {@link SandboxProvider}. */
export function isSandboxProvider(value: unknown): value is SandboxProvider {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return ["acquire", "get", "release", "shutdown"].every((m) => typeof v[m] === "function");
}

function isClass(fn: (...args: never[]) => unknown): boolean {
  return /^class[\s{]/.test(Function.prototype.toString.call(fn));
}

/**
 * Loads the provider a configuration names. Relative specifiers resolve
 * against `baseUrl` (default: the process's working directory).
 *
 * @throws SandboxError `CONFIG_INVALID` when the module or export is missing,
 *   or the export does not produce a {@link SandboxProvider}.
 * @example
 * ```ts
 * const provider = await loadSandboxProvider({ use: "@deerflow/sandbox:createLocalSandboxProvider", options: { baseDir: ".deer-flow" } });
 * ```
 */
export async function loadSandboxProvider(spec: ProviderSpec, baseUrl?: string | URL): Promise<SandboxProvider> {
  const { specifier, exportName } = parseProviderUse(spec.use);
  const base = baseUrl ?? new URL(`file://${process.cwd()}/`);
  const target = specifier.startsWith(".") || specifier.startsWith("/") ? new URL(specifier, base).href : specifier;
  let mod: Record<string, unknown>;
  try {
    mod = (await import(target)) as Record<string, unknown>;
  } catch (cause) {
    throw new SandboxError("CONFIG_INVALID", `Cannot load sandbox provider module '${specifier}': ${(cause as Error).message}`, { cause });
  }
  const exported = mod[exportName];
  if (typeof exported !== "function") {
    throw new SandboxError("CONFIG_INVALID", `Module '${specifier}' has no exported class or function '${exportName}'.`);
  }
  const make = exported as (...args: unknown[]) => unknown;
  const instance = isClass(make) ? new (make as unknown as new (o: unknown) => unknown)(spec.options) : await make(spec.options);
  if (!isSandboxProvider(instance)) {
    throw new SandboxError("CONFIG_INVALID", `'${spec.use}' did not produce a SandboxProvider (acquire, get, release, shutdown).`);
  }
  return instance;
}
