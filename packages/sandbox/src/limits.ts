/** Limits and defaults. Values follow DeerFlow unless noted. */

/** Virtual root of the thread's data. */
export const USER_DATA_ROOT = "/mnt/user-data";
export const WORKSPACE_PATH = "/mnt/user-data/workspace";
export const UPLOADS_PATH = "/mnt/user-data/uploads";
export const OUTPUTS_PATH = "/mnt/user-data/outputs";
/** Read-only skills tree. */
export const SKILLS_PATH = "/mnt/skills";
/** User id when `acquire` gets none (DeerFlow, with auth disabled). */
export const DEFAULT_USER_ID = "default";
/** Default command timeout (DeerFlow: 600 s). */
export const DEFAULT_COMMAND_TIMEOUT_MS = 600_000;
/** Bytes kept per output stream of one command (DeerFlow: 10 MiB). */
export const MAX_STREAM_OUTPUT_BYTES = 10 * 1024 * 1024;
/** Largest file `readBytes` returns (DeerFlow's download cap: 100 MiB). */
export const MAX_READ_BYTES = 100 * 1024 * 1024;
/** Default and largest `listDir` depth. */
export const DEFAULT_LIST_DEPTH = 2;
/** Default / hard cap of glob results. */
export const DEFAULT_GLOB_RESULTS = 200;
export const MAX_GLOB_RESULTS = 1000;
/** Default / hard cap of grep matches. */
export const DEFAULT_GREP_RESULTS = 100;
export const MAX_GREP_RESULTS = 500;
/** grep skips files larger than this. */
export const GREP_MAX_FILE_BYTES = 1_000_000;
/** grep skips lines longer than this and truncates matched lines to 200 chars. */
export const GREP_MAX_LINE_CHARS = 2000;
export const GREP_MATCH_DISPLAY_CHARS = 200;
/** Bytes inspected for a NUL to call a file binary. */
export const BINARY_PROBE_BYTES = 8192;
