/**
 * `@deerflow/skills`: Agent Skills for LangGraph JS agents.
 *
 * - Parse and validate SKILL.md ({@link validateSkillMarkdown}, {@link loadSkillFile}).
 * - Discover and cache a skills tree with enabled state ({@link SkillCatalog}).
 * - Render the `<skill_system>` prompt section ({@link renderSkillSection}) and
 *   the `describe_skill` tool for large catalogs.
 * - Install `.skill` archives safely ({@link installSkillArchive}) and pack them.
 * - Edit custom skills with history and rollback ({@link CustomSkillStore}) and
 *   let agents do it through the `skill_manage` tool.
 * - Scan packages ({@link StaticSkillScanner}, {@link ChatModelModerationScanner}).
 *
 * @packageDocumentation
 */

// Errors, logging, limits
export { SkillsError, isDeerflowError, type SkillsErrorCode } from "./errors.js";
export { silentLogger, type Logger } from "./logger.js";
export * from "./limits.js";

// Model
export { skillContainerFilePath, skillContainerPath, type Skill, type SkillCategory } from "./model/skill.js";
export type { SecretRequirement, SkillFrontmatter, ValidationIssue } from "./model/frontmatter.js";

// Parsing and validation
export { splitFrontmatter, type FrontmatterSplit } from "./parsing/frontmatter.js";
export { ALLOWED_FRONTMATTER_KEYS, SKILL_NAME_PATTERN, skillFrontmatterSchema } from "./parsing/frontmatter-schema.js";
export {
  validateSkillDirectory,
  validateSkillMarkdown,
  validationMessage,
  type ValidateOptions,
  type ValidationResult,
} from "./parsing/validate.js";
export { loadSkillFile, type LoadSkillOptions, type SkillLoadResult } from "./parsing/load-skill.js";
export { readSkillFile, type SkillFileRead } from "./parsing/read-skill-file.js";

// Catalog and enabled state
export * from "./catalog/index.js";

// Per-user skills (DeerFlow's users/<uid>/skills layout)
export {
  DEFAULT_MAX_CACHED_USERS,
  UserSkillsStorage,
  type UserSkillSet,
  type UserSkillsMount,
  type UserSkillsStorageOptions,
} from "./users/user-skills-storage.js";
export { userFolderName } from "./users/user-folder-name.js";

// Prompt
export * from "./prompt/index.js";

// Install and pack
export {
  installSkillArchive,
  installSkillFromDirectory,
  type InstallOptions,
  type InstallResult,
} from "./install/install.js";
export { packSkillDirectory, type PackResult } from "./install/pack.js";
export { safeExtractSkillArchive, type ExtractOptions, type ExtractResult } from "./install/safe-extract.js";
export { isUnsafeMemberName } from "./install/member-name.js";
export { readSkillArchiveMember, type ReadMemberOptions, type SkillArchiveMember } from "./install/read-member.js";

// Security scanning
export type {
  Finding,
  ModerationDecision,
  ModerationInput,
  ModerationResult,
  ModerationScanner,
  ScanReport,
  Severity,
  SkillScanner,
} from "./scanning/types.js";
export { StaticSkillScanner } from "./scanning/static/scanner.js";
export { RULE_CATALOGUE, type RuleSpec } from "./scanning/static/catalogue.js";
export { formatFindings, toWireFinding, type WireFinding } from "./scanning/static/findings.js";
export { scanArchiveEntries, type ArchiveEntryInfo } from "./scanning/static/archive-entries.js";
export {
  ChatModelModerationScanner,
  MODERATION_FAILURE_REASONS,
  type ChatModelModerationScannerOptions,
} from "./scanning/moderation/chat-model-scanner.js";
export { AllowAllModerationScanner } from "./scanning/moderation/allow-all.js";
export { scanSkillPackage, type ScanSkillPackageOptions, type SkillScanVerdict } from "./scanning/pipeline.js";
export { moderateContent, type ModerateContentOptions } from "./scanning/moderate-content.js";

// Custom skills, history, skill_manage
export { CustomSkillStore } from "./custom/custom-skill-store.js";
export type { CustomSkillStoreOptions, MutationContext } from "./custom/mutation-context.js";
export type { PatchOutcome } from "./custom/patch-content.js";
export { SkillHistory, type NewHistoryRecord, type SkillHistoryOptions } from "./custom/history.js";
export {
  historyRecordToJson,
  type HistoryAction,
  type HistoryAuthor,
  type HistoryRecord,
  type ScannerVerdict,
} from "./custom/history-record.js";
export { isValidSkillName, normalizeSkillName } from "./custom/skill-name.js";
export { resolveSupportPath, type SupportDirectory, type SupportPath } from "./custom/support-path.js";
export {
  createSkillManageTool,
  runSkillManage,
  type SkillManageStoreInput,
  type SkillManageTool,
  type SkillManageToolOptions,
} from "./tools/skill-manage.js";
export { SKILL_MANAGE_SCHEMA, SKILL_MANAGE_TOOL_NAME, type SkillManageInput } from "./tools/skill-manage-schema.js";
