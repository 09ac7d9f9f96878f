/**
 * The assistant-store kit's context: its option types (the fresh stores per
 * test come from `../store-instances.ts`, shared with the run- and
 * account-store kits) and input fixtures with unique ids.
 */
import type { AssistantStore, CreateAssistantInput } from "../../assistants/assistant-store.js";
import { uid } from "../run-store/context.js";
import type {
  AddStoresTest,
  StoreHandle,
  StoreInstances,
  StoreKitOptions,
  StoreKitRunner,
} from "../store-instances.js";

/** What a store factory returns; `cleanup` runs after the kit closed the store (drop schemas, delete files). */
export type AssistantStoreHandle = StoreHandle<AssistantStore>;

/** Creates an empty store; called once per test. */
export type MakeAssistantStore = () => Promise<AssistantStoreHandle>;

/** Several stores over one shared backend, each with its own connections (like separate server instances). */
export type AssistantStoreInstances = StoreInstances<AssistantStore>;

/** Creates `count` instances over one fresh, empty backend; called once per test. */
export type MakeAssistantStoreInstances = (count: number) => Promise<AssistantStoreInstances>;

/** The test functions the kit takes: vitest's or jest's, or `nodeTestRunner(nodeTest)`. */
export type AssistantStoreRunner = StoreKitRunner;

/** The one argument of `assistantStoreConformance`. */
export type AssistantStoreConformanceOptions = StoreKitOptions<AssistantStore>;

/** Registers one test; `stores` has one entry, or several for cross-instance runs. */
export type AddAssistantTest = AddStoresTest<AssistantStore>;

/** A creation input with a unique id, owned by `owner` (default `alice`); fields can be overridden. */
export function assistantInput(overrides: Partial<CreateAssistantInput> = {}): CreateAssistantInput {
  return { assistantId: uid("asst"), graphId: "agent", owner: "alice", ...overrides };
}

/** Resolves after `ms` milliseconds (to make timestamps differ). */
export function tick(ms = 5): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
