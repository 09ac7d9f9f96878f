/**
 * Options of the skills routes plugin.
 */
import type { ThreadAuthorizer } from "../auth/thread-access.js";
import type { ThreadFiles } from "../files/thread-files.js";
import type { SkillsBackend } from "./skills-backend.js";

/** Options of `skillsRoutes`. */
export interface SkillsRoutesOptions {
  /** The skills per user (e.g. `createSharedSkillsBackend({ catalog })`). */
  readonly backend: SkillsBackend;
  /** Thread files, for `POST /skills/install` (the route is left out without them). */
  readonly files?: ThreadFiles;
  /** Per-thread authorization of `POST /skills/install`. */
  readonly authorizeThread?: ThreadAuthorizer;
  /** Largest `.skill` archive accepted by install and upload, in bytes. Default 512 MiB (the decompressed cap). */
  readonly maxArchiveBytes?: number;
  /** Where archive copies are staged. Default `os.tmpdir()`. */
  readonly tempDir?: string;
  /** `POST /skills/reload` fails with 500 when the rescan takes longer. Default 5000 ms (DeerFlow's). */
  readonly reloadTimeoutMs?: number;
}
