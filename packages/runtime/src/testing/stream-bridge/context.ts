/**
 * The stream-bridge kit's context: a fresh bridge per test (closed and cleaned
 * up after it), unique run ids, a pull-based reader with timeouts whose
 * failure messages say what was expected, and id helpers.
 */
import { randomUUID } from "node:crypto";
import type { ConformanceExpect, ConformanceRunner } from "@deerflow/kernel";
import { RuntimeError } from "../../errors.js";
import type { StreamBridge, StreamEvent, StreamItem, SubscribeOptions } from "../../stream/stream-bridge.js";

/** What `makeBridge` returns. */
export interface StreamBridgeHandle {
  readonly bridge: StreamBridge;
  /** Called after each test, after the kit closed the bridge (drop keys, stop servers). */
  readonly cleanup?: () => Promise<void>;
}

/** Creates the bridge under test; called once per test. */
export type MakeStreamBridge = () => Promise<StreamBridgeHandle>;

/** The test functions the stream-bridge kit takes: vitest's or jest's, or `nodeTestRunner(nodeTest)`. */
export type StreamBridgeRunner = ConformanceRunner<"beforeEach" | "afterEach">;

/** The one argument of `streamBridgeConformance`: what to test, with which test functions. */
export interface StreamBridgeConformanceOptions extends StreamBridgeRunner {
  /** Names the suite (`streamBridgeConformance: <name>`). */
  readonly name: string;
  /** Creates a fresh bridge configured with `maxEventsPerRun` events of retention; called once per test. */
  readonly makeBridge: MakeStreamBridge;
  /**
   * The `maxEventsPerRun` the bridges from `makeBridge` are configured with.
   * Retention checks publish a little more than this; a small value (e.g. 16)
   * keeps them fast. Default 1024 (both built-in bridges' default).
   */
  readonly maxEventsPerRun?: number;
  /** Multiplies every wait and test timeout (2 or 3 for a slow backend). Default 1. */
  readonly timeoutScale?: number;
}

/** Resolved options. */
export interface ResolvedOptions {
  readonly maxEventsPerRun: number;
  readonly timeoutScale: number;
}

/** A published event as the publisher knows it. */
export interface Published {
  readonly id: string;
  readonly event: string;
  readonly data: unknown;
}

/** Everything a check file registers its tests with. */
export interface Kit {
  readonly options: ResolvedOptions;
  /** The injected `expect`. */
  readonly expect: ConformanceExpect;
  /** The test's bridge; only valid inside a test. */
  bridge(): StreamBridge;
  /** Marks the bridge closed by the test (the kit then does not close it again). */
  markClosed(): void;
  /** A run id unique to this kit run. */
  runId(label: string): string;
  /** `ms` scaled by `timeoutScale`. */
  ms(ms: number): number;
  /** Registers a test with a scaled timeout (default 30 s). */
  test(name: string, body: () => Promise<void>, timeoutMs?: number): void;
}

/**
 * Registers one group: a `describe` whose tests each get a bridge of their own.
 *
 * @param runner - The injected test functions.
 * @param name - The group (describe) name.
 * @param makeBridge - The implementation's factory.
 * @param options - Resolved kit options.
 * @param register - Registers the group's tests on the {@link Kit}.
 */
export function group(
  runner: StreamBridgeRunner,
  name: string,
  makeBridge: MakeStreamBridge,
  options: ResolvedOptions,
  register: (kit: Kit) => void,
): void {
  const { describe, it, beforeEach, afterEach } = runner;
  describe(name, () => {
    let handle: StreamBridgeHandle | undefined;
    let closed = false;
    beforeEach(async () => {
      closed = false;
      handle = await makeBridge();
    }, 60_000 * options.timeoutScale);
    afterEach(async () => {
      const current = handle;
      handle = undefined;
      if (current === undefined) return;
      try {
        if (!closed) await current.bridge.close();
      } finally {
        await current.cleanup?.();
      }
    }, 60_000 * options.timeoutScale);

    const slug = name
      .replace(/[^A-Za-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .toLowerCase();
    register({
      options,
      expect: runner.expect,
      bridge: () => {
        if (handle === undefined) throw new Error(`no bridge for "${name}" (see the beforeEach error)`);
        return handle.bridge;
      },
      markClosed: () => {
        closed = true;
      },
      runId: (label) => `kit-${slug}-${label}-${randomUUID()}`,
      ms: (ms) => Math.round(ms * options.timeoutScale),
      test: (testName, body, timeoutMs = 30_000) => it(testName, body, timeoutMs * options.timeoutScale),
    });
  });
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Pulls items from one subscription, failing with a precise message when the
 * next item does not come in time.
 */
export class Reader {
  private readonly iterator: AsyncIterator<StreamItem>;
  private readonly controller = new AbortController();
  /** Every item pulled so far, heartbeats included. */
  readonly items: StreamItem[] = [];

  /**
   * @param kit - for timeout scaling.
   * @param runId - subscribed run.
   * @param options - subscribe options; a `signal` is added unless given.
   */
  constructor(
    private readonly kit: Kit,
    readonly runId: string,
    options: SubscribeOptions = {},
  ) {
    const signal = options.signal ?? this.controller.signal;
    this.iterator = kit
      .bridge()
      .subscribe(runId, { ...options, signal })
      [Symbol.asyncIterator]();
  }

  /** Aborts the reader's own signal (when the test did not pass one). */
  abort(): void {
    this.controller.abort();
  }

  /** Starts pulling the next item without waiting for it. */
  pull(): Promise<IteratorResult<StreamItem>> {
    return this.iterator.next().then((result) => {
      if (result.done !== true) this.items.push(result.value);
      return result;
    });
  }

  /** The next item (heartbeats included), or `done`. */
  async next(timeoutMs = 10_000, what = "the next item"): Promise<IteratorResult<StreamItem>> {
    return within(this.pull(), this.kit.ms(timeoutMs), `${what} of run ${this.runId}`);
  }

  /** The next item that is not a heartbeat, or null when the iteration ended. */
  async nextItem(timeoutMs = 10_000, what = "the next item"): Promise<StreamItem | null> {
    for (;;) {
      const result = await this.next(timeoutMs, what);
      if (result.done === true) return null;
      if (result.value.kind !== "heartbeat") return result.value;
    }
  }

  /** Reads until the iteration ends; returns the non-heartbeat items. */
  async rest(timeoutMs = 10_000): Promise<StreamItem[]> {
    const out: StreamItem[] = [];
    for (;;) {
      const item = await this.nextItem(timeoutMs, "an item before the end of the iteration");
      if (item === null) return out;
      out.push(item);
    }
  }

  /** Expects the iteration to be over (possibly after heartbeats). */
  async expectDone(timeoutMs = 10_000): Promise<void> {
    const item = await this.nextItem(timeoutMs, "the end of the iteration");
    if (item !== null)
      throw new Error(`expected the iteration of run ${this.runId} to be over, got ${describeItem(item)}`);
  }

  /** Stops the iterator (as `break` in a for-await would). */
  async close(): Promise<void> {
    this.controller.abort();
    await this.iterator.return?.();
  }
}

/** Races `promise` against a timeout with a message naming what was awaited. */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Publishes `count` events named `event` with data `{ i }` (i from `from`) in order. */
export async function publishMany(
  bridge: StreamBridge,
  runId: string,
  count: number,
  from = 0,
  event = "custom",
): Promise<Published[]> {
  const out: Published[] = [];
  for (let i = from; i < from + count; i++) {
    const data = { i };
    out.push({ id: await bridge.publish(runId, event, data), event, data });
  }
  return out;
}

/** The events of a list of published ones, as a subscriber should see them. */
export function asEvents(published: readonly Published[]): StreamEvent[] {
  return published.map((p) => ({ kind: "event", id: p.id, event: p.event, data: p.data }));
}

/** Items without heartbeats, as plain objects (so `toEqual` ignores frozen-ness). */
export function plain(items: readonly StreamItem[]): StreamItem[] {
  return items.filter((item) => item.kind !== "heartbeat").map((item) => ({ ...item }));
}

/** `[ms, seq]` of an id, failing the test for a malformed one. */
export function idParts(id: string): [bigint, bigint] {
  const match = /^(\d+)-(\d+)$/.exec(id);
  if (match === null) throw new Error(`event id ${JSON.stringify(id)} is not of the form "<ms>-<seq>"`);
  return [BigInt(match[1] as string), BigInt(match[2] as string)];
}

/** True when id `a` is strictly after id `b` in `(ms, seq)` order. */
export function idAfter(a: string, b: string): boolean {
  const [am, as] = idParts(a);
  const [bm, bs] = idParts(b);
  return am > bm || (am === bm && as > bs);
}

/** Awaits `promise` and checks it fails with a `RuntimeError` of `code`; returns the error. */
export async function expectRuntimeError(promise: Promise<unknown>, code: string): Promise<RuntimeError> {
  let outcome: unknown;
  try {
    await promise;
  } catch (err) {
    outcome = err;
    if (RuntimeError.isInstance(err) && err.code === code) return err;
  }
  if (outcome === undefined) throw new Error(`expected a RuntimeError ${code}, but the call succeeded`);
  const got = RuntimeError.isInstance(outcome)
    ? `RuntimeError ${outcome.code}: ${outcome.message}`
    : outcome instanceof Error
      ? `${outcome.name}: ${outcome.message}`
      : String(outcome);
  throw new Error(`expected a RuntimeError ${code}, got ${got}`);
}

/** Short description of an item for failure messages. */
export function describeItem(item: StreamItem): string {
  return item.kind === "event"
    ? `event ${item.id} ${item.event} ${JSON.stringify(item.data)?.slice(0, 80)}`
    : JSON.stringify(item);
}

/** Polls `probe` until it returns true or `timeoutMs` passes. */
export async function waitFor(probe: () => Promise<boolean>, timeoutMs: number, intervalMs = 25): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe()) return true;
    if (Date.now() >= deadline) return false;
    await sleep(intervalMs);
  }
}
