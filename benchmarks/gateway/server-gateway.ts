/**
 * Child process: the DeerFlow gateway (`createGateway` + `langgraphRoutes`) on a
 * `RunManager` with its in-memory defaults (MemoryRunStore, MemoryStreamBridge,
 * LocalRunCoordinator) and a `MemorySaver`, serving `graph.ts` as assistant
 * `agent` under `/api` on a free loopback port. Reports `{ port }` over IPC and
 * exits when the parent goes away. With the argument `accounts`, user accounts are on
 * (`auth-overhead.ts` signs in over HTTP).
 */
import { randomBytes } from "node:crypto";
import { AssistantRegistry, PasswordHasher, createGateway, langgraphRoutes } from "@deerflow/gateway";
import { MemoryAccountStore, RunManager } from "@deerflow/runtime";
import { MemorySaver } from "@langchain/langgraph";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { workflow } from "./graph.js";

if (process.send === undefined) throw new Error("server-gateway.ts is started by run.ts (needs an IPC channel)");

const checkpointer = new MemorySaver();
// Compiled once per checkpointer and reused by every run, as langgraph-api reuses its one compiled graph:
// once for the state routes (the saver itself) and once for runs (the runtime hands every run the same
// view of its saver). More would mean a compile per run, which this baseline must not pay: it fails loudly.
const compiled = new Map<BaseCheckpointSaver | undefined, ReturnType<typeof workflow.compile>>();
const build = (saver?: BaseCheckpointSaver) => {
  let graph = compiled.get(saver);
  if (graph === undefined) {
    if (compiled.size >= 2) throw new Error("server-gateway.ts: the graph is being compiled per run");
    graph = workflow.compile(saver === undefined ? {} : { checkpointer: saver });
    compiled.set(saver, graph);
  }
  return graph;
};

const assistants = new AssistantRegistry([
  {
    // The id langgraph-api gives the system assistant of graph "agent" (uuidv5 of the graph id).
    assistantId: "fe096781-5601-53d2-b2f6-0d3403f7e9ca",
    graphId: "agent",
    name: "agent",
    graph: ({ checkpointer: saver }) => build(saver),
    stateGraph: build,
  },
]);
const manager = new RunManager({ graphs: assistants.graphs, checkpointer });
// `accounts` (auth-overhead.ts): the same server with user accounts on, in-memory account store.
const accounts =
  process.argv[2] === "accounts"
    ? {
        store: new MemoryAccountStore(),
        secret: randomBytes(32).toString("hex"),
        passwordHasher: new PasswordHasher({ cost: 4 }),
      }
    : undefined;
const app = await createGateway({
  routes: [langgraphRoutes({ manager, checkpointer, assistants })],
  ...(accounts === undefined ? {} : { accounts }),
});
await app.listen({ port: 0, host: "127.0.0.1" });
const address = app.server.address();
if (address === null || typeof address === "string") throw new Error(`unexpected listen address ${String(address)}`);

let closing = false;
const close = async (): Promise<void> => {
  if (closing) return;
  closing = true;
  const timer = setTimeout(() => process.exit(0), 3_000);
  timer.unref();
  try {
    await app.close();
    await manager.shutdown();
  } finally {
    process.exit(0);
  }
};
process.on("disconnect", () => void close());
process.on("SIGTERM", () => void close());
process.on("SIGINT", () => void close());
process.send({ port: address.port });
