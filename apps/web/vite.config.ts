import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

/**
 * The DeerFlow web console. `vite build` writes `dist/` (served by apps/server at `/`):
 * hashed files under `dist/assets/`, no source maps, no external URLs (system fonts,
 * everything bundled). `vite` (dev) proxies the API to a server on 127.0.0.1:2024.
 */
export default defineConfig(({ command }) => {
  // A build is always the production one, even when NODE_ENV says otherwise (a build started by
  // a test runner inherits NODE_ENV=test, which would ship React's development build and
  // jsxDEV). Vite reads NODE_ENV after loading this file.
  if (command === "build") process.env["NODE_ENV"] = "production";
  return {
    base: "/",
    plugins: [react()],
    build: {
      outDir: "dist",
      emptyOutDir: true,
      sourcemap: false,
      target: "es2022",
      // Nothing is inlined as a data: URL and nothing is fetched from elsewhere.
      assetsInlineLimit: 0,
      modulePreload: { polyfill: false },
      reportCompressedSize: false,
      rolldownOptions: {
        treeshake: {
          // @langchain/core and langsmith declare no `sideEffects`, so their unused modules
          // (runnables, tracing clients) would be kept; the SDK only needs message classes.
          moduleSideEffects: (id: string) =>
            !/[\\/]node_modules[\\/](?:\.pnpm[\\/][^\\/]+[\\/]node_modules[\\/])?(?:langsmith|@langchain[\\/]core)[\\/]/.test(
              id,
            ),
        },
      },
    },
    server: {
      proxy: { "/api": { target: "http://127.0.0.1:2024", changeOrigin: false } },
    },
  };
});
