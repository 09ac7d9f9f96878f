/**
 * Publishing a run's graph events without waiting for each one: up to a limit
 * stay in flight (the bridge keeps their order, and a Redis bridge sends what
 * queued up in one round trip), so the graph does not stall on the network
 * per event. The first publish that fails is remembered and stops the run.
 */
import type { StreamBridge } from "../stream/stream-bridge.js";
import { errorMessage } from "./error-event.js";

/** The bridge refused an event; the run cannot report progress any more. */
export class PublishFailure extends Error {
  constructor(
    readonly event: string,
    cause: unknown,
  ) {
    super(`Stream bridge publish failed for event "${event}": ${errorMessage(cause)}`, { cause });
    this.name = "PublishFailure";
  }
}

/**
 * The graph events of one run in flight to the bridge, oldest first. The
 * bridge keeps their order; the window only bounds how far the graph runs
 * ahead and remembers the first failure.
 */
export class PublishWindow {
  /** The first publish that failed, in publish order. */
  failure: PublishFailure | undefined;
  private readonly inFlight: Promise<void>[] = [];

  constructor(
    private readonly bridge: StreamBridge,
    private readonly runId: string,
    private readonly limit: number,
    private readonly onFailure: (failure: PublishFailure) => void,
  ) {}

  /**
   * Starts publishing an event; waits only while `limit` publishes are
   * outstanding. Throws the first {@link PublishFailure} once it is known.
   */
  async publish(event: string, data: unknown): Promise<void> {
    if (this.failure) throw this.failure;
    let sent: Promise<unknown>;
    try {
      sent = this.bridge.publish(this.runId, event, data);
    } catch (err) {
      sent = Promise.reject(err);
    }
    // Attached now: a publish refused at once is recorded before this method's caller resumes,
    // so no later event is published after it.
    this.inFlight.push(
      sent.then(
        () => undefined,
        (err: unknown) => this.fail(new PublishFailure(event, err)),
      ),
    );
    if (this.inFlight.length >= this.limit) await this.inFlight.shift();
    if (this.failure) throw this.failure;
  }

  /** Waits for every outstanding publish; returns the first failure, if any. */
  async settle(): Promise<PublishFailure | undefined> {
    while (this.inFlight.length > 0) await this.inFlight.shift();
    return this.failure;
  }

  private fail(failure: PublishFailure): void {
    if (this.failure) return;
    this.failure = failure;
    this.onFailure(failure);
  }
}
