/**
 * Child process: `@langchain/langgraph-api`'s in-memory server, started the way
 * its CLI entrypoint (`dist/cli/entrypoint.mjs`, spawned by `langgraphjs dev`)
 * does it, minus `tsx watch` and the IPC handshake with the CLI: `startServer`
 * with the options JSON as the last argument (which its `preload.mjs`, passed
 * with `--import`, reads too). run.ts passes `{ port: 0, nWorkers, host, cwd,
 * graphs: { agent: "<path>/graph.ts:graph" } }` with `cwd` a temporary folder
 * (its `.langgraph_api/` files go there). Reports `{ port }` over IPC and exits
 * when the parent goes away.
 */
import { StartServerSchema, startServer } from "@langchain/langgraph-api/server";

if (process.send === undefined) throw new Error("server-langgraph-api.ts is started by run.ts (needs an IPC channel)");

const options = StartServerSchema.parse(JSON.parse(process.argv.at(-1) ?? "{}"));
const { host, cleanup } = await startServer(options);
const port = Number(host.split(":").at(-1));
if (!Number.isInteger(port) || port <= 0) throw new Error(`unexpected host ${host}`);
// langgraph-api's entrypoint exports the port; its run metadata reads LANGGRAPH_API_URL.
process.env["PORT"] = String(port);
process.env["LANGGRAPH_API_URL"] = `http://${options.host}:${port}`;

let closing = false;
const close = async (): Promise<void> => {
  if (closing) return;
  closing = true;
  const timer = setTimeout(() => process.exit(0), 3_000);
  timer.unref();
  try {
    await cleanup();
  } finally {
    process.exit(0);
  }
};
process.on("disconnect", () => void close());
process.on("SIGTERM", () => void close());
process.on("SIGINT", () => void close());
process.send({ port });
