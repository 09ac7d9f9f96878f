import { defineConfig } from "vitest/config";

// Unit tests (`*.test.ts`) use temp dirs only; the integration test
// (`*.int.test.ts`) packs the real packages and installs them from the npm
// registry (through npm's and pnpm's caches) into fresh projects. Two consumer
// projects at a time: installs wait on the network and disk, compiles on CPU.
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
          testTimeout: 300_000,
          hookTimeout: 300_000,
          maxConcurrency: 2,
        },
      },
    ],
  },
});
