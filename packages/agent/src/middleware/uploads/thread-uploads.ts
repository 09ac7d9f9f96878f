/**
 * The files of a run's uploads folder, as the thread's sandbox sees them: what
 * `UploadsMiddleware` checks announced files against (DeerFlow checks the host
 * folder; asking the sandbox works for remote sandboxes too).
 */
import type { Logger } from "../../logger.js";
import type { RunConfigLike } from "../../run/run-options.js";
import type { ThreadSandboxes } from "../../sandbox/thread-sandboxes.js";
import { UPLOADS_VIRTUAL_DIR } from "./uploads-text.js";

/**
 * @param sessions - the agent's thread sandboxes
 * @param config - the run's config (its thread)
 * @param logger - receives a listing failure
 * @returns base names of the regular files in `/mnt/user-data/uploads` (empty when it cannot be listed)
 */
export async function listThreadUploads(
  sessions: ThreadSandboxes,
  config: RunConfigLike,
  logger: Logger,
): Promise<ReadonlySet<string>> {
  try {
    const sandbox = await sessions.sandboxFor(config);
    const entries = await sandbox.listDir(UPLOADS_VIRTUAL_DIR, { maxDepth: 1 });
    const prefix = `${UPLOADS_VIRTUAL_DIR}/`;
    return new Set(entries.filter((e) => e.startsWith(prefix) && !e.endsWith("/")).map((e) => e.slice(prefix.length)));
  } catch (err) {
    logger.warn({ err }, "could not list the thread's uploads; announcing none");
    return new Set();
  }
}
