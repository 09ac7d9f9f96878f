#!/usr/bin/env node
// `npm start`: the product's main job from a fresh clone (only Node 20 and npm needed).
// Installs the pinned toolchain and the workspace dependencies if missing, builds the
// server and the packages it uses, then runs the DeerFlow server in the foreground on
// embedded defaults (or ./config.yaml when present). Its JSON log prints the URL.
// Arguments are passed through: `npm start -- --port 8080 --config deploy.yaml`.
// Ctrl-C / SIGTERM are forwarded to the server, which shuts down gracefully.
import { spawn } from "node:child_process";
import path from "node:path";
import { ensureDependencies, repoRoot, run, toolEnv } from "./lib/toolchain.mjs";

ensureDependencies();
const built = run("pnpm", [
  "exec",
  "turbo",
  "run",
  "build",
  "--filter=@deerflow/server...",
  "--output-logs=errors-only",
]);
if (built !== 0) process.exit(built);

process.stdout.write("[start] starting the DeerFlow server (JSON logs follow; Ctrl-C stops it)\n");
const child = spawn(process.execPath, [path.join(repoRoot, "apps/server/dist/main.js"), ...process.argv.slice(2)], {
  cwd: process.cwd(),
  stdio: "inherit",
  env: toolEnv(),
});
// The server handles the signals; this wrapper only passes them on and waits. Ctrl-C in a
// terminal already reaches the server (same process group): forwarding it too would count
// as a second Ctrl-C, which makes the server exit without draining.
const forward = (signal) => {
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
};
process.on("SIGINT", () => {
  if (!process.stdin.isTTY) forward("SIGINT");
});
process.on("SIGTERM", () => forward("SIGTERM"));
process.on("SIGHUP", () => forward("SIGTERM"));
child.on("error", (err) => {
  process.stderr.write(`[start] could not start the server: ${err.message}\n`);
  process.exit(1);
});
child.on("exit", (code, signal) => process.exit(code ?? (signal === null ? 1 : 128 + (signal === "SIGINT" ? 2 : 15))));
