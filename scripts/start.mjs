#!/usr/bin/env node
// The product's main job from a fresh clone. Until the server exists this is the
// skills CLI validating and listing the built-in skills.
import { ensureDependencies, run } from "./lib/toolchain.mjs";

ensureDependencies();
let code = run("pnpm", ["exec", "turbo", "run", "build", "--filter=@deerflow/skills", "--output-logs=errors-only"]);
if (code !== 0) process.exit(code);
const cli = ["packages/skills/dist/cli.js"];
code = run("node", [...cli, "validate", "--root", "skills", "--all", "--scan"]);
if (code !== 0) process.exit(code);
process.exit(run("node", [...cli, "list", "--root", "skills", ...process.argv.slice(2)]));
