import { defineConfig } from "tsup";

// The private @deerflow/kernel is bundled, code and declarations (packages/kernel/README.md says why).
const kernel = /^@deerflow\/kernel/;

const entry = {
  index: "src/index.ts",
  redis: "src/redis.ts",
  postgres: "src/postgres.ts",
  sqlite: "src/sqlite.ts",
  testing: "src/testing/index.ts",
};

// Loaded by path from a worker thread (`WorkerSqliteRunStore`), never imported: no declarations.
const workers = {
  "sqlite-run-store-worker": "src/runs/sqlite/worker/sqlite-run-store-worker.ts",
};

export default defineConfig({
  entry: { ...entry, ...workers },
  format: ["esm"],
  dts: { entry, resolve: [kernel] },
  clean: true,
  sourcemap: true,
  target: "node20",
  platform: "node",
  // Optional peers stay external so `@deerflow/runtime` alone never loads them.
  external: [
    "ioredis",
    "pg",
    "better-sqlite3",
    "@langchain/langgraph-checkpoint-postgres",
    "@langchain/langgraph-checkpoint-sqlite",
  ],
  noExternal: [kernel],
});
