/**
 * `streamBridgeConformance`: the kit every {@link StreamBridge}
 * implementation runs (both built-in bridges do), for plugin authors.
 */
import { concurrencyTests } from "./stream-bridge/concurrency.js";
import { group, type ResolvedOptions, type StreamBridgeConformanceOptions } from "./stream-bridge/context.js";
import { lifecycleTests } from "./stream-bridge/lifecycle.js";
import { orderingTests } from "./stream-bridge/ordering.js";
import { payloadTests } from "./stream-bridge/payloads.js";
import { retentionTests } from "./stream-bridge/retention.js";
// oxlint-disable-next-line no-unused-vars -- referenced by the {@link StreamBridge} tags of this file's TSDoc
import type { StreamBridge } from "../stream/stream-bridge.js";

export type {
  MakeStreamBridge,
  StreamBridgeConformanceOptions,
  StreamBridgeHandle,
  StreamBridgeRunner,
} from "./stream-bridge/context.js";

/**
 * Registers the stream-bridge conformance suite: ordering and ids, replay from
 * every cursor form, exact resume, gaps (evicted cursor, slow subscriber; counted
 * by `stats()` when the bridge has it), the
 * end marker at the retention cap, heartbeats, subscribing before the first
 * publish, abort, exists/cleanup, idempotent `publishEnd`, `close`, malformed
 * cursors, data round-trips (JSON types, 1 MB, unicode) and 50 concurrent
 * subscribers. Each test gets a fresh bridge from `makeBridge`; the kit closes
 * it afterwards, then calls the handle's `cleanup`. Call it at the top level of
 * a test file with your runner's `describe`, `it`, `expect`, `beforeEach` and
 * `afterEach` (vitest's or jest's as they are; `nodeTestRunner(nodeTest)` for
 * `node:test`).
 *
 * The kit holds bridges to the contract of {@link StreamBridge}, including:
 * ids `"<ms>-<seq>"` strictly increasing in `(ms, seq)` order; a cursor that
 * was evicted (older than the earliest retained event) yields exactly one gap;
 * a malformed cursor fails with `RuntimeError` `INVALID_ARGUMENT` whose message
 * quotes it; `publish` after `close` fails with `CLOSED`.
 *
 * @param options - `name`, `makeBridge` (a fresh bridge configured with
 *   `maxEventsPerRun` events of retention), the test functions, the retention
 *   the bridges use, and timeout scaling.
 * @throws TypeError when the options are invalid.
 *
 * @example
 * ```ts
 * import { afterEach, beforeEach, describe, expect, it } from "vitest";
 * import { streamBridgeConformance } from "@deerflow/runtime/testing";
 *
 * streamBridgeConformance({
 *   name: "my bridge",
 *   makeBridge: async () => {
 *     const bridge = new MyBridge({ url, keyPrefix: `test:${randomUUID()}:`, maxEventsPerRun: 16 });
 *     return { bridge, cleanup: () => dropKeys() };
 *   },
 *   maxEventsPerRun: 16,
 *   describe, it, expect, beforeEach, afterEach,
 * });
 * ```
 */
export function streamBridgeConformance(options: StreamBridgeConformanceOptions): void {
  const resolved = resolveOptions(options);
  const { makeBridge } = options;
  options.describe(`streamBridgeConformance: ${options.name}`, () => {
    group(options, "ordering, replay and resume", makeBridge, resolved, orderingTests);
    group(options, "retention and gaps", makeBridge, resolved, retentionTests);
    group(options, "lifecycle", makeBridge, resolved, lifecycleTests);
    group(options, "payloads and cursors", makeBridge, resolved, payloadTests);
    group(options, "concurrency", makeBridge, resolved, concurrencyTests);
  });
}

function resolveOptions(options: StreamBridgeConformanceOptions): ResolvedOptions {
  const maxEventsPerRun = options.maxEventsPerRun ?? 1024;
  const timeoutScale = options.timeoutScale ?? 1;
  if (!Number.isInteger(maxEventsPerRun) || maxEventsPerRun < 2)
    throw new TypeError(`maxEventsPerRun must be an integer ≥ 2, got ${String(maxEventsPerRun)}`);
  if (typeof timeoutScale !== "number" || !(timeoutScale > 0))
    throw new TypeError(`timeoutScale must be a positive number, got ${String(timeoutScale)}`);
  return { maxEventsPerRun, timeoutScale };
}
