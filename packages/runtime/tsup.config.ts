import { defineConfig } from "tsup";

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
  dts: { entry },
  clean: true,
  sourcemap: true,
  target: "node20",
  platform: "node",
  // Optional peers stay external so `@deerflow/runtime` alone never loads them.
  external: ["vitest", "ioredis", "pg", "better-sqlite3", "@langchain/langgraph-checkpoint-postgres", "@langchain/langgraph-checkpoint-sqlite"],
});
