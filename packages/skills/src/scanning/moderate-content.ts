/**
 * Moderation of a single changed file (custom-skill edits: `skill_manage`
 * create/edit/patch/write_file and the human edit routes), with the messages
 * DeerFlow uses for writes.
 */
import { SkillsError } from "../errors.js";
import { NO_REASON } from "./moderation/parse.js";
import type { Finding, ModerationResult, ModerationScanner } from "./types.js";

/** Input of {@link moderateContent}. */
export interface ModerateContentOptions {
  readonly moderation: ModerationScanner;
  /** The new file text. */
  readonly content: string;
  /** `<skill>/<relative path>`, shown to the moderator and in errors. */
  readonly location: string;
  /** True for code (see `isExecutableSupportPath`); executables must get `allow`. */
  readonly executable: boolean;
  /** Static findings of the candidate tree, as context for the moderator. */
  readonly staticFindings?: readonly Finding[];
  readonly signal?: AbortSignal;
}

/**
 * Moderates one file write and enforces the verdict.
 *
 * @param options - see {@link ModerateContentOptions}.
 * @returns the accepted verdict (`allow`, or `warn` for non-executable content)
 *   with a non-empty reason, for the history record.
 * @throws SkillsError `SECURITY_BLOCKED` `"Security scan blocked the write: <reason>"`
 *   or `"Security scan rejected executable content: <reason>"`;
 *   `SECURITY_SCAN_FAILED` `"Security scan failed for <location>: <error>"` when
 *   the scanner throws, or `"…: invalid scanner decision '<d>'"`; the signal's
 *   reason when aborted.
 * @example
 * ```ts
 * const verdict = await moderateContent({ moderation, content, location: "my-skill/scripts/run.py", executable: true });
 * ```
 */
export async function moderateContent(options: ModerateContentOptions): Promise<ModerationResult> {
  const { moderation, location, executable, signal } = options;
  signal?.throwIfAborted();
  let result: ModerationResult;
  try {
    result = await moderation.moderate({
      content: options.content,
      location,
      executable,
      ...(options.staticFindings ? { staticFindings: options.staticFindings } : {}),
      ...(signal ? { signal } : {}),
    });
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    const text = err instanceof Error ? err.message : String(err);
    throw new SkillsError("SECURITY_SCAN_FAILED", `Security scan failed for ${location}: ${text}`, {
      cause: err,
      details: { location },
    });
  }
  const decision: unknown = result?.decision;
  const reason = result?.reason ? String(result.reason) : NO_REASON;
  const details = { location, decision, reason };
  if (decision === "block")
    throw new SkillsError("SECURITY_BLOCKED", `Security scan blocked the write: ${reason}`, { details });
  if (executable && decision !== "allow")
    throw new SkillsError("SECURITY_BLOCKED", `Security scan rejected executable content: ${reason}`, { details });
  if (decision !== "allow" && decision !== "warn") {
    const repr = typeof decision === "string" ? `'${decision}'` : decision == null ? "None" : JSON.stringify(decision);
    throw new SkillsError(
      "SECURITY_SCAN_FAILED",
      `Security scan failed for ${location}: invalid scanner decision ${repr}`,
      { details },
    );
  }
  return { decision, reason };
}
