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

export default defineConfig({
  entry,
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
