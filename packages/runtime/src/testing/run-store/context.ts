/**
 * The run-store kit's context: its option types (the fresh store per test
 * comes from `../store-instances.ts`, shared with the account- and
 * assistant-store kits), input fixtures with unique ids, and assertion
 * helpers the other store kits use too.
 */
import { randomUUID } from "node:crypto";
import type { ConformanceExpect } from "@deerflow/kernel";
import { RuntimeError, type RuntimeErrorCode } from "../../errors.js";
import type { AdmitRunInput, AdmitRunResult, RunStore } from "../../runs/run-store.js";
import type { MultitaskStrategy, RunRecord } from "../../runs/types.js";
import type {
  AddStoresTest,
  StoreHandle,
  StoreInstances,
  StoreKitOptions,
  StoreKitRunner,
} from "../store-instances.js";

/** What a store factory returns; `cleanup` runs after the kit closed the store (drop schemas, stop servers). */
export type RunStoreHandle = StoreHandle<RunStore>;

/** Creates an empty store; called once per test. */
export type MakeRunStore = () => Promise<RunStoreHandle>;

/** Several stores over one shared backend, each with its own connections (like separate server instances). */
export type RunStoreInstances = StoreInstances<RunStore>;

/** Creates `count` instances over one fresh, empty backend; called once per test. */
export type MakeRunStoreInstances = (count: number) => Promise<RunStoreInstances>;

/** The test functions the run-store kit takes: vitest's or jest's, or `nodeTestRunner(nodeTest)`. */
export type RunStoreRunner = StoreKitRunner;

/** The one argument of `runStoreConformance`: what to test, with which test functions. */
export type RunStoreConformanceOptions = StoreKitOptions<RunStore>;

/** Registers one test of a group; `stores` has one entry, or several for cross-instance runs. */
export type AddTest = AddStoresTest<RunStore>;

/** A unique id with a readable prefix. */
export function uid(prefix: string): string {
  return `${prefix}-${randomUUID()}`;
}

/** An admission on `threadId` with unique run id; fields can be overridden. */
export function admission(threadId: string, overrides: Partial<AdmitRunInput> = {}): AdmitRunInput {
  return {
    runId: uid("run"),
    threadId,
    assistantId: "agent",
    multitaskStrategy: "enqueue",
    onDisconnect: "cancel",
    metadata: {},
    kwargs: { input: { messages: [] }, streamMode: ["values"] },
    ownerId: "instance-a",
    ifNotExists: "create",
    ...overrides,
  };
}

/** Admits a run with `strategy` (default `enqueue`) on `threadId`. */
export function admit(
  store: RunStore,
  threadId: string,
  strategy: MultitaskStrategy = "enqueue",
  overrides: Partial<AdmitRunInput> = {},
): Promise<AdmitRunResult> {
  return store.admitRun(admission(threadId, { multitaskStrategy: strategy, ...overrides }));
}

/** Admits and starts a run, failing the test when it does not start. */
export async function admitRunning(
  store: RunStore,
  threadId: string,
  overrides: Partial<AdmitRunInput> = {},
): Promise<RunRecord> {
  const { run } = await admit(store, threadId, "enqueue", overrides);
  const started = await store.tryStartRun(run.runId);
  if (started.outcome !== "started") throw new Error(`expected run ${run.runId} to start, got ${started.outcome}`);
  return started.run;
}

/**
 * Awaits `promise` and checks that it rejects with a {@link RuntimeError} of `code`.
 *
 * @returns The error, for further checks.
 */
export async function expectRuntimeError(promise: Promise<unknown>, code: RuntimeErrorCode): Promise<RuntimeError> {
  let outcome: unknown;
  try {
    await promise;
  } catch (err) {
    outcome = err;
  }
  if (outcome === undefined) throw new Error(`expected RuntimeError ${code}, but the call succeeded`);
  if (!RuntimeError.isInstance(outcome) || outcome.code !== code) {
    const got = RuntimeError.isInstance(outcome) ? `RuntimeError ${outcome.code}: ${outcome.message}` : String(outcome);
    throw new Error(`expected RuntimeError ${code}, got ${got}`);
  }
  return outcome;
}

/** ISO-8601 UTC with milliseconds, as `Date.prototype.toISOString` writes it. */
export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Checks every timestamp of a run record is an ISO-8601 UTC string or null where allowed. */
export function expectIsoTimestamps(expect: ConformanceExpect, run: RunRecord): void {
  expect(run.createdAt).toMatch(ISO_UTC);
  expect(run.updatedAt).toMatch(ISO_UTC);
  if (run.startedAt !== null) expect(run.startedAt).toMatch(ISO_UTC);
  if (run.endedAt !== null) expect(run.endedAt).toMatch(ISO_UTC);
}

/** Settles every promise; returns fulfilled values and rejections apart. */
export async function settle<T>(promises: Promise<T>[]): Promise<{ ok: T[]; failed: unknown[] }> {
  const results = await Promise.allSettled(promises);
  return {
    ok: results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : [])),
    failed: results.flatMap((r) => (r.status === "rejected" ? [r.reason as unknown] : [])),
  };
}

/** The code of a RuntimeError, or a description of anything else (for failure messages). */
export function describeError(err: unknown): string {
  return RuntimeError.isInstance(err) ? err.code : err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}
