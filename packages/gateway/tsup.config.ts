import { defineConfig } from "tsup";

// The private @deerflow/kernel is bundled, code and declarations (packages/kernel/README.md says why).
const kernel = /^@deerflow\/kernel/;

const entry = { index: "src/index.ts", testing: "src/testing/index.ts" };

export default defineConfig({
  entry,
  format: ["esm"],
  dts: { entry, resolve: [kernel] },
  clean: true,
  sourcemap: true,
  target: "node20",
  platform: "node",
  noExternal: [kernel],
});
