/**
 * One abort signal for a subscription that stops when either the bridge
 * closes or the caller's signal aborts; `dispose` detaches the listeners so a
 * long-lived caller signal does not accumulate them.
 */
export interface LinkedSignal {
  readonly signal: AbortSignal;
  /** Aborts the linked signal (e.g. the subscription ended on its own). */
  abort(): void;
  /** Removes the listeners from the parent signals. */
  dispose(): void;
}

/** Links `parents` (undefined entries are ignored) into one signal. */
export function linkSignals(...parents: ReadonlyArray<AbortSignal | undefined>): LinkedSignal {
  const controller = new AbortController();
  const abort = (): void => controller.abort();
  const attached: AbortSignal[] = [];
  for (const parent of parents) {
    if (parent === undefined) continue;
    if (parent.aborted) {
      controller.abort();
      continue;
    }
    parent.addEventListener("abort", abort, { once: true });
    attached.push(parent);
  }
  return {
    signal: controller.signal,
    abort,
    dispose: () => {
      for (const parent of attached) parent.removeEventListener("abort", abort);
    },
  };
}
