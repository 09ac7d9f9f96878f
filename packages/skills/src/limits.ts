/** Limits shared by parsing, install and scanning. Values follow DeerFlow unless noted. */

/** Largest SKILL.md accepted, checked in bytes before the file is read. */
export const MAX_SKILL_FILE_BYTES = 10 * 1024 * 1024;
/** Longest skill name. */
export const MAX_SKILL_NAME_LENGTH = 64;
/** Longest description, in characters after trimming. */
export const MAX_DESCRIPTION_LENGTH = 1024;
/** Longest `compatibility` value (Agent Skills specification). */
export const MAX_COMPATIBILITY_LENGTH = 500;
/** Most entries in a `.skill` archive (inclusive). */
export const MAX_ARCHIVE_ENTRIES = 4096;
/** Most uncompressed bytes in a `.skill` archive. */
export const MAX_ARCHIVE_TOTAL_BYTES = 512 * 1024 * 1024;
/** Most uncompressed bytes of one archive member. */
export const MAX_ARCHIVE_FILE_BYTES = 64 * 1024 * 1024;
/** Most YAML alias references in one frontmatter block (expansion-bomb guard). */
export const MAX_YAML_ALIASES = 100;
/** Default container mount point of the skills tree. */
export const DEFAULT_SKILLS_CONTAINER_PATH = "/mnt/skills";
/** The skill definition file name. */
export const SKILL_FILE_NAME = "SKILL.md";
/** Support folders a custom skill may hold files in. */
export const SUPPORT_DIRECTORIES = ["assets", "references", "scripts", "templates"] as const;
/** Most decompressed bytes of one archive member read for a preview (DeerFlow's `MAX_SKILL_ARCHIVE_MEMBER_BYTES`). */
export const MAX_ARCHIVE_PREVIEW_BYTES = 16 * 1024 * 1024;
