/**
 * Child process: the real DeerFlow server (`createServer` on `loadConfig`'s
 * embedded defaults: SQLite run store and checkpointer under the data dir,
 * in-memory stream bridge, the local sandbox, subagents on), whose only
 * configured model is {@link FastModel} (a `use:` plugin), so the lead agent —
 * compiled once, with its whole chain — is what runs. No console, logs at
 * `error`. Listens on a free loopback port, reports `{ port }` over IPC and
 * exits when the parent goes away. The working folder is the first argument.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
// The server as `npm start` runs it: its build (apps/server/dist, which `pnpm bench` builds first), as the
// baseline's gateway is. From its sources, tsx (esbuild with keepNames) would wrap every function the
// server creates per request in a naming helper that no build pays. BENCH_SERVER=src runs the sources.
const entry =
  process.env["BENCH_SERVER"] === "src" ? "../../apps/server/src/index.js" : "../../apps/server/dist/index.js";
const { createServer, createServerLogger, loadConfig } = (await import(
  entry
)) as typeof import("../../apps/server/src/index.js");

if (process.send === undefined) throw new Error("server-deerflow.ts is started by run.ts (needs an IPC channel)");
const cwd = process.argv.at(-1) ?? process.cwd();
const modelModule = path.join(path.dirname(fileURLToPath(import.meta.url)), "fast-model.ts");
writeFileSync(path.join(cwd, "config.yaml"), `models:\n  - name: fast\n    use: "${modelModule}:FastModel"\n`);

const server = await createServer(await loadConfig({ cwd, env: {} }), {
  cwd,
  env: {},
  consoleDir: false,
  logger: createServerLogger({ level: "error" }),
});
const url = await server.listen({ host: "127.0.0.1", port: 0 });

let closing = false;
const close = async (): Promise<void> => {
  if (closing) return;
  closing = true;
  const timer = setTimeout(() => process.exit(0), 5_000);
  timer.unref();
  try {
    await server.close({ drain: false, timeoutMs: 1_000 });
  } finally {
    process.exit(0);
  }
};
process.on("disconnect", () => void close());
process.on("SIGTERM", () => void close());
process.on("SIGINT", () => void close());
process.send({ port: Number(new URL(url).port) });
