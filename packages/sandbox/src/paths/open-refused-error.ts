/**
 * The refusal raised by the openers of `safe-open.ts`, in its own module so
 * that `fs-errors.ts` can map it without importing the openers (which import
 * `fs-errors.ts`).
 */

/** Why an open was refused. */
export type OpenRefusal = "not-regular" | "directory";

/** Raised by the openers of `safe-open.ts`; `toSandboxError` maps it to a `SandboxError`. */
export class OpenRefusedError extends Error {
  readonly reason: OpenRefusal;

  constructor(reason: OpenRefusal) {
    super(`open refused: ${reason}`);
    this.name = "OpenRefusedError";
    this.reason = reason;
  }
}
