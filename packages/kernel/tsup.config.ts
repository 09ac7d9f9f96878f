import { defineConfig } from "tsup";

// Private: consumed only by the other workspace packages, which bundle it (see README).
export default defineConfig({
  entry: { index: "src/index.ts" },
  format: ["esm"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20",
  platform: "node",
});
