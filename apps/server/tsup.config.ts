import { defineConfig } from "tsup";

// The private @deerflow/kernel is bundled (packages/kernel/README.md says why): it is a dev
// dependency, absent from a production install of the server.
const kernel = /^@deerflow\/kernel/;

// Private app: ESM only, no declarations. `main` is the `deerflow-server` CLI (its shebang is kept).
export default defineConfig({
  entry: { index: "src/index.ts", main: "src/main.ts" },
  format: ["esm"],
  dts: false,
  clean: true,
  sourcemap: true,
  target: "node20",
  platform: "node",
  noExternal: [kernel],
});
