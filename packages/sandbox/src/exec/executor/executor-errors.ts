/** Internal failures of executors; the pool turns them into a retry, a fallback or a `SandboxError`. */

/** The executor went away while a request was pending. */
export class ExecutorLostError extends Error {
  /** True when the executor had confirmed that the command's process existed. */
  readonly started: boolean;

  /**
   * @param started - whether the command had begun.
   * @param reason - what happened.
   */
  constructor(started: boolean, reason: string) {
    super(reason);
    this.name = "ExecutorLostError";
    this.started = started;
  }
}

/** An executor could not be spawned or did not report ready. */
export class ExecutorStartError extends Error {
  /**
   * @param message - why, with the executor's diagnostics (bubblewrap's message) when there are any.
   * @param options - the underlying error.
   */
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ExecutorStartError";
  }
}
