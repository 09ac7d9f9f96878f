/**
 * The run-store kit under `node:test` against a store that loses its threads:
 * the injected `assertExpect` must fail the kit's checks (run by
 * test/testing/node-test.int.test.ts, which expects failures here).
 */
import * as nodeTest from "node:test";
import { MemoryRunStore } from "../../../src/runs/memory-run-store.js";
import type { ThreadRecord } from "../../../src/runs/types.js";
import { nodeTestRunner, runStoreConformance } from "../../../src/testing/index.js";

class ForgetfulRunStore extends MemoryRunStore {
  override async getThread(): Promise<ThreadRecord | null> {
    return null;
  }
}

runStoreConformance({
  name: "ForgetfulRunStore",
  makeStore: async () => ({ store: new ForgetfulRunStore() }),
  ...nodeTestRunner(nodeTest),
});
