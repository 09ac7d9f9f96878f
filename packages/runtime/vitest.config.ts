import { defineConfig } from "vitest/config";

// Unit tests (`*.test.ts`) use in-process implementations only; integration
// tests (`*.int.test.ts`) talk to real Redis and PostgreSQL or spawn processes.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["src/**/*.test.ts", "test/**/*.test.ts"],
          exclude: ["**/*.int.test.ts"],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: "int",
          include: ["src/**/*.int.test.ts", "test/**/*.int.test.ts"],
          testTimeout: 120_000,
          hookTimeout: 60_000,
          // Integration files share one Redis and one PostgreSQL; each uses its own key prefix / schema.
          fileParallelism: false,
        },
      },
    ],
  },
});
