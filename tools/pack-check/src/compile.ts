/** Compiles a consumer project with the workspace's TypeScript (the version the packages are built with). */
import { createRequire } from "node:module";
import { runCommand, type CommandResult } from "./run-command.js";

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

/** Runs `tsc -p <dir>`; the project's tsconfig decides what is compiled and where it goes. */
export function compileProject(dir: string): Promise<CommandResult> {
  return runCommand(process.execPath, [tsc, "-p", dir], { cwd: dir, timeoutMs: 180_000 });
}
