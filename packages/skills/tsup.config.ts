import { defineConfig } from "tsup";

export default defineConfig({
  entry: { index: "src/index.ts", testing: "src/testing/index.ts", cli: "src/cli/main.ts" },
  format: ["esm"],
  dts: { entry: { index: "src/index.ts", testing: "src/testing/index.ts" } },
  clean: true,
  sourcemap: true,
  target: "node20",
  platform: "node",
});
