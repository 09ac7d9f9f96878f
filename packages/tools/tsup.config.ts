import { defineConfig } from "tsup";

// The private @deerflow/kernel is bundled, code and declarations (packages/kernel/README.md says why).
const kernel = /^@deerflow\/kernel/;

export default defineConfig({
  entry: { index: "src/index.ts", "testing/index": "src/testing/index.ts" },
  format: ["esm"],
  dts: { resolve: [kernel] },
  clean: true,
  sourcemap: true,
  target: "node20",
  platform: "node",
  noExternal: [kernel],
});
