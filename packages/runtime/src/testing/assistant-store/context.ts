/**
 * The assistant-store kit's context: fresh stores per test (created in
 * `beforeEach`, closed and cleaned up in `afterEach`) and input fixtures with
 * unique ids.
 */
import type { ConformanceExpect, ConformanceRunner } from "@deerflow/kernel";
import type { AssistantStore, CreateAssistantInput } from "../../assistants/assistant-store.js";
import { uid } from "../run-store/context.js";

/** What a store factory returns. */
export interface AssistantStoreHandle {
  readonly store: AssistantStore;
  /** Called after the test, once the kit closed the store (drop schemas, delete files). */
  readonly cleanup?: () => Promise<void>;
}

/** Creates an empty store; called once per test. */
export type MakeAssistantStore = () => Promise<AssistantStoreHandle>;

/** Several stores over one shared backend, each with its own connections (like separate server instances). */
export interface AssistantStoreInstances {
  readonly stores: readonly AssistantStore[];
  readonly cleanup?: () => Promise<void>;
}

/** Creates `count` instances over one fresh, empty backend; called once per test. */
export type MakeAssistantStoreInstances = (count: number) => Promise<AssistantStoreInstances>;

/** The test functions the kit takes: vitest's or jest's, or `nodeTestRunner(nodeTest)`. */
export type AssistantStoreRunner = ConformanceRunner<"beforeEach" | "afterEach">;

/** The one argument of `assistantStoreConformance`. */
export interface AssistantStoreConformanceOptions extends AssistantStoreRunner {
  /** Names the suite (`assistantStoreConformance: <name>`). */
  readonly name: string;
  /** Creates an empty store; called once per test. */
  readonly makeStore: MakeAssistantStore;
  /** When given, the race tests run again with their callers spread over two instances. */
  readonly makeInstances?: MakeAssistantStoreInstances;
  /** Multiplies every test timeout. Default 1. */
  readonly timeoutScale?: number;
}

/** Registers one test; `stores` has one entry, or several for cross-instance runs. */
export type AddAssistantTest = (
  name: string,
  body: (stores: readonly AssistantStore[]) => Promise<void>,
  timeoutMs?: number,
) => void;

/** Registers a group of tests, each on fresh stores from `make`. */
export function assistantGroup(
  runner: AssistantStoreRunner,
  name: string,
  make: () => Promise<AssistantStoreInstances>,
  timeoutScale: number,
  register: (test: AddAssistantTest, expect: ConformanceExpect) => void,
): void {
  const { describe, it, beforeEach, afterEach } = runner;
  describe(name, () => {
    let current: AssistantStoreInstances | undefined;
    beforeEach(async () => {
      current = await make();
    }, 60_000 * timeoutScale);
    afterEach(async () => {
      const done = current;
      current = undefined;
      if (!done) return;
      for (const store of done.stores) await store.close();
      await done.cleanup?.();
    }, 60_000 * timeoutScale);
    const test: AddAssistantTest = (testName, body, timeoutMs = 30_000) =>
      it(
        testName,
        async () => {
          if (!current) throw new Error(`the store of "${testName}" was not created (see the beforeEach error)`);
          await body(current.stores);
        },
        timeoutMs * timeoutScale,
      );
    register(test, runner.expect);
  });
}

/** Adapts a single-store factory to {@link assistantGroup}. */
export function singleAssistantStore(make: MakeAssistantStore): () => Promise<AssistantStoreInstances> {
  return async () => {
    const handle = await make();
    return handle.cleanup ? { stores: [handle.store], cleanup: handle.cleanup } : { stores: [handle.store] };
  };
}

/** A creation input with a unique id, owned by `owner` (default `alice`); fields can be overridden. */
export function assistantInput(overrides: Partial<CreateAssistantInput> = {}): CreateAssistantInput {
  return { assistantId: uid("asst"), graphId: "agent", owner: "alice", ...overrides };
}

/** Resolves after `ms` milliseconds (to make timestamps differ). */
export function tick(ms = 5): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
