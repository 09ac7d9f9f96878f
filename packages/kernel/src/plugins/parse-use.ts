/**
 * Parsing of `use: "<module specifier>:<export name>"` values.
 */
import { PluginLoadError } from "./plugin-load-error.js";

/** A parsed `use` value. */
export interface UseSpec {
  /** Module specifier: a relative or absolute path, a `file:` URL, or a package name (with optional subpath). */
  readonly specifier: string;
  /** Named export (`default` for the default export). */
  readonly exportName: string;
}

const EXPORT_NAME = /^[A-Za-z_$][\w$]*$/;

/**
 * Splits a `use` value at its last `:` (the module part may contain colons, as in `node:` or `file:`).
 *
 * @param use - e.g. `./plugins/scanner.js:QuietScanner` or `@acme/deerflow-plugins:createModel`
 * @returns the specifier and export name
 * @throws PluginLoadError `PLUGIN_SPEC_INVALID` when either part is missing or the export name is not an identifier
 */
export function parseUseSpec(use: string): UseSpec {
  const at = use.lastIndexOf(":");
  const specifier = at > 0 ? use.slice(0, at).trim() : "";
  const exportName = at > 0 ? use.slice(at + 1).trim() : "";
  if (specifier === "" || !EXPORT_NAME.test(exportName)) {
    throw new PluginLoadError(
      "PLUGIN_SPEC_INVALID",
      use,
      `Invalid plugin "use" value "${use}": expected "<module specifier>:<export name>", e.g. "./plugins/my-scanner.js:MyScanner" or "my-package:createModel"`,
      { stage: "spec" },
    );
  }
  return { specifier, exportName };
}

/**
 * @param use - a `use` value.
 * @returns whether it parses as `"<module>:<export>"`.
 */
export function isUseSpec(use: string): boolean {
  try {
    parseUseSpec(use);
    return true;
  } catch {
    return false;
  }
}
