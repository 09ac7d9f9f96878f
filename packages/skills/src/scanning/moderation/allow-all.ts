/**
 * The moderation scanner for deployments without a moderation model.
 */
import type { ModerationInput, ModerationResult, ModerationScanner } from "../types.js";

/**
 * Allows everything (`id` `none`, reason `Moderation disabled.`). The static
 * scan still runs and still blocks CRITICAL findings; only the model review is
 * skipped, so scripts install without a second opinion. Choose it knowingly.
 *
 * @example
 * ```ts
 * const moderation = config.moderationModel ? new ChatModelModerationScanner({ model }) : new AllowAllModerationScanner();
 * ```
 */
export class AllowAllModerationScanner implements ModerationScanner {
  /** Identifier in logs and history. */
  readonly id = "none";

  /**
   * @param _input - ignored.
   * @returns always `{ decision: "allow", reason: "Moderation disabled." }`.
   */
  moderate(_input: ModerationInput): Promise<ModerationResult> {
    return Promise.resolve({ decision: "allow", reason: "Moderation disabled." });
  }
}
