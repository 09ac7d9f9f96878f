import { defineConfig } from "vitest/config";

// Unit tests (`*.test.ts`) use temp dirs only; integration tests (`*.int.test.ts`)
// run real processes: bubblewrap, the host shell, the remote sandbox service.
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
        },
      },
    ],
  },
});
