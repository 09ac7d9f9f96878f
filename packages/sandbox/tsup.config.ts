import { defineConfig } from "tsup";

export default defineConfig({
  entry: {
    index: "src/index.ts",
    testing: "src/testing/index.ts",
    server: "src/remote/server/index.ts",
    "server-cli": "src/remote/server/main.ts",
  },
  format: ["esm"],
  dts: { entry: { index: "src/index.ts", testing: "src/testing/index.ts", server: "src/remote/server/index.ts" } },
  clean: true,
  sourcemap: true,
  target: "node20",
  platform: "node",
  external: ["vitest"],
});
