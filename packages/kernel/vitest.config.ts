import { defineConfig } from "vitest/config";

// Unit tests only (`*.test.ts` next to their source): temp dirs and in-process code.
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
    ],
  },
});
