/** Configuration: `config.yaml` and `extensions_config.json`. */
export {
  loadConfig,
  parseConfigText,
  CONFIG_FILE_NAME,
  type LoadConfigOptions,
  type LoadedConfig,
} from "./load-config.js";
export { describeConfig } from "./describe.js";
export { ServerConfigError, type ConfigProblem, type ServerConfigErrorCode } from "./errors.js";
export { CONFIG_SCHEMA } from "./schema.js";
export { CONFIG_DEFAULTS, SCALE_OUT_ENV } from "./defaults.js";
export { substituteEnv, type SubstitutionResult } from "./env-substitution.js";
export { loadExtensionsConfig, type ExtensionsConfig, type McpServerConfig } from "./extensions-config.js";
export { maskSecret, maskUrl } from "./mask.js";
export { formatKeyPath, type KeySegment } from "./key-path.js";
export type * from "./types.js";
