/** A deterministic hold point for graph nodes and tools in worker tests. */

/** Lets a node wait, the first `holds` times it runs, until its signal aborts. */
export class Gate {
  private remaining: number;
  private enteredResolve!: () => void;
  /** Resolves when a node is waiting at the gate. */
  entered: Promise<void>;
  sawAbort = false;

  constructor(holds = 1) {
    this.remaining = holds;
    this.entered = new Promise((resolve) => (this.enteredResolve = resolve));
  }

  /** Waits until `signal` aborts (then throws its reason) while holds remain; passes afterwards. */
  async pass(signal: AbortSignal | undefined): Promise<void> {
    if (this.remaining <= 0) return;
    this.remaining--;
    this.enteredResolve();
    await new Promise<void>((_, reject) => {
      const onAbort = () => {
        this.sawAbort = true;
        reject(signal?.reason ?? new Error("aborted"));
      };
      if (signal?.aborted) onAbort();
      else signal?.addEventListener("abort", onAbort, { once: true });
    });
  }
}
