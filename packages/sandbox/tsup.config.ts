import { copyFile } from "node:fs/promises";
import { defineConfig } from "tsup";

// The private @deerflow/kernel is bundled, code and declarations (packages/kernel/README.md says why).
const kernel = /^@deerflow\/kernel/;

export default defineConfig({
  entry: {
    index: "src/index.ts",
    testing: "src/testing/index.ts",
    server: "src/remote/server/index.ts",
    "server-cli": "src/remote/server/main.ts",
  },
  format: ["esm"],
  dts: {
    entry: { index: "src/index.ts", testing: "src/testing/index.ts", server: "src/remote/server/index.ts" },
    resolve: [kernel],
  },
  clean: true,
  sourcemap: true,
  target: "node20",
  platform: "node",
  noExternal: [kernel],
  // The sandbox executor runs inside bubblewrap as a plain script, read from
  // next to the bundle (see src/exec/executor/launch.ts): shipped as is.
  onSuccess: async () => {
    await copyFile("src/exec/executor/sandbox-executor.cjs", "dist/sandbox-executor.cjs");
  },
});
