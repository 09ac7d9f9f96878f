import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadExport, loadPlugin, parseUseSpec, PluginLoadError } from "./index.js";
import { tempDirs, writeFiles } from "../../test/support/temp-dir.js";

const tmp = tempDirs();
afterEach(() => tmp.cleanup());

async function pluginError(promise: Promise<unknown>): Promise<PluginLoadError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!PluginLoadError.isInstance(err)) throw new Error(`expected a PluginLoadError, got ${String(err)}`);
  return err;
}

const PLUGIN = `
export function makeThing(options) { return { kind: "thing", options }; }
export class Thing { constructor(options) { this.options = options; } }
export async function makeLater(options) { return { later: true, options }; }
export const notCallable = "hello";
export default function def() { return "default"; }
`;

describe("parseUseSpec", () => {
  it("splits at the last colon", () => {
    expect(parseUseSpec("./plugins/x.js:makeThing")).toEqual({ specifier: "./plugins/x.js", exportName: "makeThing" });
    expect(parseUseSpec("node:path:join")).toEqual({ specifier: "node:path", exportName: "join" });
    expect(parseUseSpec("@scope/pkg/sub:Thing")).toEqual({ specifier: "@scope/pkg/sub", exportName: "Thing" });
  });

  it("rejects values without an export name", async () => {
    for (const bad of ["./x.js", ":x", "./x.js:", "./x.js:not-an-identifier"]) {
      expect(() => parseUseSpec(bad)).toThrow(/expected "<module specifier>:<export name>"/);
    }
  });
});

describe("loadExport", () => {
  it("loads a relative module from the config folder first, then the working directory", async () => {
    const configDir = await tmp.make();
    const cwd = await tmp.make();
    await writeFiles(configDir, { "plugins/x.js": PLUGIN });
    await writeFiles(cwd, { "plugins/only-cwd.js": "export const f = () => 'cwd';" });
    const make = (await loadExport("./plugins/x.js:makeThing", { configDir, cwd })) as (o: unknown) => unknown;
    expect(make({ a: 1 })).toEqual({ kind: "thing", options: { a: 1 } });
    const f = (await loadExport("./plugins/only-cwd.js:f", { configDir, cwd })) as () => string;
    expect(f()).toBe("cwd");
  });

  it("loads absolute paths and the default export", async () => {
    const dir = await tmp.make();
    await writeFiles(dir, { "x.mjs": PLUGIN });
    const def = (await loadExport(`${path.join(dir, "x.mjs")}:default`)) as () => string;
    expect(def()).toBe("default");
  });

  it("resolves an ESM-only package (exports with only an import condition) from node_modules", async () => {
    const dir = await tmp.make();
    await writeFiles(dir, {
      "node_modules/@acme/deerflow-plugins/package.json": JSON.stringify({ name: "@acme/deerflow-plugins", type: "module", exports: { ".": { import: "./dist/index.js" }, "./extra": { import: "./dist/extra.js" } } }),
      "node_modules/@acme/deerflow-plugins/dist/index.js": PLUGIN,
      "node_modules/@acme/deerflow-plugins/dist/extra.js": "export const extra = () => 'extra';",
    });
    const nested = path.join(dir, "deployments", "prod");
    await writeFiles(nested, { "config.yaml": "" });
    expect(await loadExport("@acme/deerflow-plugins:Thing", { configDir: nested, cwd: nested })).toBeTypeOf("function");
    const extra = (await loadExport("@acme/deerflow-plugins/extra:extra", { configDir: nested })) as () => string;
    expect(extra()).toBe("extra");
  });

  it("falls back to the server's own dependencies", async () => {
    const dir = await tmp.make();
    expect(await loadExport("@deerflow/sandbox:createLocalSandboxProvider", { cwd: dir })).toBeTypeOf("function");
  });

  it("names the specifier and the folders searched when the module is missing", async () => {
    const dir = await tmp.make();
    const rel = await pluginError(loadExport("./plugins/nope.js:make", { configDir: dir, cwd: dir }));
    expect(rel.code).toBe("PLUGIN_NOT_FOUND");
    expect(rel.message).toBe(`Cannot find plugin module "./plugins/nope.js" named by use "./plugins/nope.js:make" (looked in ${dir})`);
    const pkg = await pluginError(loadExport("no-such-deerflow-plugin:make", { cwd: dir, purpose: "chat model" }));
    expect(pkg.code).toBe("PLUGIN_NOT_FOUND");
    expect(pkg.message).toContain('Cannot find plugin module "no-such-deerflow-plugin" (chat model)');
  });

  it("lists the available exports when the export is missing", async () => {
    const dir = await tmp.make();
    await writeFiles(dir, { "x.js": PLUGIN });
    const err = await pluginError(loadExport("./x.js:makeThign", { cwd: dir }));
    expect(err.code).toBe("PLUGIN_EXPORT_MISSING");
    expect(err.message).toBe('Plugin module "./x.js" has no export "makeThign". Available exports: Thing, default, makeLater, makeThing, notCallable');
  });

  it("says what was expected when the export has the wrong kind", async () => {
    const dir = await tmp.make();
    await writeFiles(dir, { "x.js": PLUGIN });
    const err = await pluginError(loadExport("./x.js:notCallable", { cwd: dir, purpose: "skill scanner" }));
    expect(err.code).toBe("PLUGIN_WRONG_KIND");
    expect(err.message).toBe('Export "notCallable" of "./x.js" is a string; expected a function or class (skill scanner)');
    const cls = await pluginError(loadExport("./x.js:makeThing", { cwd: dir, expect: "class" }));
    expect(cls.message).toBe('Export "makeThing" of "./x.js" is a function; expected a class');
  });

  it("reports a module that throws, or misses a dependency, as a load failure", async () => {
    const dir = await tmp.make();
    await writeFiles(dir, { "throws.js": "throw new Error('boom at import');", "dep.js": "import 'definitely-missing-dep-xyz'; export const x = 1;" });
    const thrown = await pluginError(loadExport("./throws.js:x", { cwd: dir }));
    expect(thrown.code).toBe("PLUGIN_LOAD_FAILED");
    expect(thrown.message).toBe('Plugin module "./throws.js" failed to load: boom at import');
    const dep = await pluginError(loadExport("./dep.js:x", { cwd: dir }));
    expect(dep.code).toBe("PLUGIN_LOAD_FAILED");
    expect(dep.message).toContain("definitely-missing-dep-xyz");
  });
});

describe("loadPlugin", () => {
  const check = (v: unknown): v is { options: unknown } => typeof v === "object" && v !== null && "options" in v;

  it("constructs classes and calls (and awaits) factories with the options", async () => {
    const dir = await tmp.make();
    await writeFiles(dir, { "x.js": PLUGIN });
    const opts = { cwd: dir, options: { n: 1 }, purpose: "thing", shape: "an object with options", check };
    expect(await loadPlugin("./x.js:Thing", opts)).toEqual({ options: { n: 1 } });
    expect(await loadPlugin("./x.js:makeThing", opts)).toEqual({ kind: "thing", options: { n: 1 } });
    expect(await loadPlugin("./x.js:makeLater", opts)).toEqual({ later: true, options: { n: 1 } });
  });

  it("rejects a result that fails the check", async () => {
    const dir = await tmp.make();
    await writeFiles(dir, { "x.js": PLUGIN });
    const err = await pluginError(loadPlugin("./x.js:default", { cwd: dir, purpose: "sandbox provider", shape: "a SandboxProvider", check }));
    expect(err.code).toBe("PLUGIN_WRONG_KIND");
    expect(err.message).toBe('Plugin "./x.js:default" produced a string, not a sandbox provider: expected a SandboxProvider');
  });

  it("reports a throwing constructor", async () => {
    const dir = await tmp.make();
    await writeFiles(dir, { "x.js": "export class Bad { constructor() { throw new Error('no region'); } }" });
    const err = await pluginError(loadPlugin("./x.js:Bad", { cwd: dir, purpose: "thing", shape: "x", check }));
    expect(err.code).toBe("PLUGIN_LOAD_FAILED");
    expect(err.message).toBe('Plugin "./x.js:Bad" (thing) threw while being created: no region');
  });
});
