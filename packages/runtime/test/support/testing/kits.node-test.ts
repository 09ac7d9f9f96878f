/**
 * The runtime kits under `node:test` (run by `node --import tsx --test`
 * from test/testing/node-test.int.test.ts): no vitest anywhere, the runner is
 * `nodeTestRunner(nodeTest)`. The coordinator group has no `breakLease`, so its
 * lease-loss checks skip themselves through node's test context.
 */
import * as nodeTest from "node:test";
import { InMemoryStore } from "@langchain/langgraph-checkpoint";
import { MemoryAccountStore } from "../../../src/accounts/memory-account-store.js";
import { LocalCoordinationHub, LocalRunCoordinator } from "../../../src/coordination/local-run-coordinator.js";
import { MemoryRunStore } from "../../../src/runs/memory-run-store.js";
import { MemoryStreamBridge } from "../../../src/stream/memory-stream-bridge.js";
import {
  accountStoreConformance,
  baseStoreConformance,
  nodeTestRunner,
  runCoordinatorConformance,
  runStoreConformance,
  streamBridgeConformance,
} from "../../../src/testing/index.js";

const runner = nodeTestRunner(nodeTest);

runStoreConformance({ name: "MemoryRunStore", makeStore: async () => ({ store: new MemoryRunStore() }), ...runner });
streamBridgeConformance({
  name: "MemoryStreamBridge",
  makeBridge: async () => ({ bridge: new MemoryStreamBridge({ maxEventsPerRun: 16 }) }),
  maxEventsPerRun: 16,
  ...runner,
});
runCoordinatorConformance({
  name: "LocalRunCoordinator",
  makeCoordinators: async (count, { leaseMs }) => {
    const hub = new LocalCoordinationHub();
    return {
      coordinators: Array.from(
        { length: count },
        (_, i) => new LocalRunCoordinator({ hub, leaseMs, instanceId: `node-${i}` }),
      ),
    };
  },
  leaseMs: 300,
  ...runner,
});
baseStoreConformance({ name: "InMemoryStore", makeStore: async () => ({ store: new InMemoryStore() }), ...runner });
accountStoreConformance({
  name: "MemoryAccountStore",
  makeStore: async () => ({ store: new MemoryAccountStore() }),
  ...runner,
});
