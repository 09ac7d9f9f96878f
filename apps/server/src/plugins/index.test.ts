import { afterEach, describe, expect, it } from "vitest";
import { loadExport, loadPlugin, PluginLoadError } from "./index.js";
import { tempDirs, writeFiles } from "../../test/support/temp-dir.js";

// The loader itself (lookup order, messages, kinds) is the kernel's and tested there
// (packages/kernel/src/plugins); these pin what the server adds: its own module resolution.
const tmp = tempDirs();
afterEach(() => tmp.cleanup());

describe("the server's use: loader", () => {
  it("falls back to the server's own dependencies", async () => {
    const dir = await tmp.make();
    expect(await loadExport("@deerflow/sandbox:createLocalSandboxProvider", { cwd: dir })).toBeTypeOf("function");
  });

  it("says the server's dependencies were searched when a package is missing", async () => {
    const dir = await tmp.make();
    const err: unknown = await loadExport("no-such-deerflow-plugin:make", { cwd: dir, purpose: "chat model" }).catch(
      (e: unknown) => e,
    );
    expect(PluginLoadError.isInstance(err) && err.code).toBe("PLUGIN_NOT_FOUND");
    expect((err as Error).message).toBe(
      `Cannot find plugin module "no-such-deerflow-plugin" (chat model) named by use "no-such-deerflow-plugin:make" (looked in ${dir} and the server's dependencies)`,
    );
  });

  it("loads a plugin from the config folder and checks what it produced", async () => {
    const configDir = await tmp.make();
    const cwd = await tmp.make();
    await writeFiles(configDir, {
      "plugins/x.js":
        "export class Thing { constructor(options) { this.options = options; } }\nexport const bad = () => 42;",
    });
    const check = (v: unknown): v is { options: unknown } => typeof v === "object" && v !== null && "options" in v;
    const opts = { configDir, cwd, options: { n: 1 }, purpose: "thing", shape: "an object with options", check };
    expect(await loadPlugin("./plugins/x.js:Thing", opts)).toEqual({ options: { n: 1 } });
    await expect(loadPlugin("./plugins/x.js:bad", opts)).rejects.toSatisfy(
      (err) => PluginLoadError.isInstance(err) && err.code === "PLUGIN_WRONG_KIND",
    );
    await expect(loadPlugin("./plugins/x.js:bad", opts)).rejects.toThrow(
      'Plugin "./plugins/x.js:bad" produced a number, not a thing: expected an object with options',
    );
  });
});
