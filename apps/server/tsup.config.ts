import { defineConfig } from "tsup";

// Private app: ESM only, no declarations. `main` is the `deerflow-server` CLI (its shebang is kept).
export default defineConfig({
  entry: { index: "src/index.ts", main: "src/main.ts" },
  format: ["esm"],
  dts: false,
  clean: true,
  sourcemap: true,
  target: "node20",
  platform: "node",
});
