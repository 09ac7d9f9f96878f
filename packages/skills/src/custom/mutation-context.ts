/**
 * Who is changing a custom skill, and the options of the store.
 */
import type { Logger } from "../logger.js";
import type { ModerationScanner, SkillScanner } from "../scanning/types.js";
import type { HistoryAuthor } from "./history-record.js";

/** Who makes a change and from which conversation. */
export interface MutationContext {
  /** `agent` for the `skill_manage` tool, `human` for the HTTP API or CLI. */
  readonly author: HistoryAuthor;
  /** The thread the change came from, recorded in history. */
  readonly threadId?: string;
  /** Cancels scanning (the change is then not made). */
  readonly signal?: AbortSignal;
}

/** Options of `CustomSkillStore`. */
export interface CustomSkillStoreOptions {
  /** Root of the editable skills: `<customRoot>/<name>/SKILL.md`, history in `<customRoot>/.history`. */
  readonly customRoot: string;
  /** Root of the built-in skills (`<publicRoot>/<name>/SKILL.md`), which are read-only. */
  readonly publicRoot?: string;
  /**
   * Deterministic scanner run on every candidate; a CRITICAL finding blocks the change.
   * `undefined` uses the built-in SkillScan; `null` turns static scanning off.
   */
  readonly staticScanner?: SkillScanner | null;
  /** Content moderation run on the changed file; `block` rejects, and so does anything but `allow` for scripts. */
  readonly moderation?: ModerationScanner;
  readonly logger?: Logger;
  /** Called after every successful change (e.g. to drop a catalog cache); failures are logged, not thrown. */
  readonly onChange?: (name: string) => void | Promise<void>;
}
