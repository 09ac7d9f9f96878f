export {
  discoverSkills,
  DISCOVERY_CATEGORIES,
  type DiagnosticSeverity,
  type DiscoverOptions,
  type DiscoveryDiagnostic,
  type DiscoveryResult,
  type DiscoverySource,
} from "./discover.js";
export { SKILL_STATES_FILE_NAME, SkillStatesFile } from "./skill-states-file.js";
export { findSkillFiles, type FindSkillFilesOptions, type SkillFileWalk, type WalkIssue } from "./find-skill-files.js";
export {
  EXTENSIONS_CONFIG_SCHEMA,
  ExtensionsConfigStore,
  isSkillEnabled,
  parseExtensionsConfig,
  type ExtensionsConfigSnapshot,
  type ExtensionsConfigStoreOptions,
} from "./extensions-config.js";
export {
  EXTENSIONS_CONFIG_FILE_NAMES,
  EXTENSIONS_CONFIG_PATH_ENV,
  locateExtensionsConfig,
  type ExplicitExtensionsConfig,
  type ExtensionsConfigLocation,
  type ExtensionsConfigSource,
  type LocateExtensionsConfigOptions,
} from "./locate-extensions-config.js";
export { SkillCatalog, type SkillCatalogOptions } from "./catalog.js";
export type { SkillSource } from "./skill-source.js";
