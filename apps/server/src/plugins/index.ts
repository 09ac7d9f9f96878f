/** The `use: "<module>:<export>"` plugin loader. */
export { PluginLoadError, type PluginLoadErrorCode } from "./errors.js";
export { parseUseSpec, isUseSpec, type UseSpec } from "./parse-use.js";
export { resolvePluginModule, isPathSpecifier, type ResolvedModule } from "./resolve-module.js";
export { loadExport, isClass, kindOf, type LoadExportOptions } from "./load-export.js";
export { loadPlugin, type LoadPluginOptions } from "./load-plugin.js";
