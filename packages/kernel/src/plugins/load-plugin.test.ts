import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadExport } from "./load-export.js";
import { loadPlugin } from "./load-plugin.js";
import { isUseSpec, parseUseSpec } from "./parse-use.js";
import { PluginLoadError } from "./plugin-load-error.js";

const importModule = (specifier: string): Promise<unknown> => import(specifier);

let dir: string;
beforeEach(async () => {
  dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "kernel-plugins-")));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

async function write(files: Record<string, string>, root = dir): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await fs.writeFile(path.join(root, rel), content);
  }
}

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
    expect(parseUseSpec("file:///srv/p.mjs:make")).toEqual({ specifier: "file:///srv/p.mjs", exportName: "make" });
  });

  it.each(["", "noColon", "./x.js", ":x", ":Export", "./x.js:", "mod:not-an-identifier", "mod: 1abc"])(
    "rejects %j as PLUGIN_SPEC_INVALID",
    (bad) => {
      let caught: unknown;
      try {
        parseUseSpec(bad);
      } catch (err) {
        caught = err;
      }
      expect(PluginLoadError.isInstance(caught) && caught.code).toBe("PLUGIN_SPEC_INVALID");
      expect(PluginLoadError.isInstance(caught) && caught.stage).toBe("spec");
      expect((caught as Error).message).toMatch(/expected "<module specifier>:<export name>"/);
      expect(isUseSpec(bad)).toBe(false);
    },
  );

  it("isUseSpec accepts what parses", () => {
    expect(isUseSpec("pkg:default")).toBe(true);
  });
});

describe("loadExport", () => {
  it("loads a relative module from the config folder first, then the working directory", async () => {
    const configDir = path.join(dir, "config");
    const cwd = path.join(dir, "cwd");
    await write({
      "config/plugins/x.js": PLUGIN,
      "cwd/plugins/x.js": "export const makeThing = () => 'cwd copy';",
      "cwd/plugins/only-cwd.js": "export const f = () => 'cwd';",
    });
    const make = (await loadExport("./plugins/x.js:makeThing", { configDir, cwd, importModule })) as (
      o: unknown,
    ) => unknown;
    expect(make({ a: 1 })).toEqual({ kind: "thing", options: { a: 1 } });
    const f = (await loadExport("./plugins/only-cwd.js:f", { configDir, cwd, importModule })) as () => string;
    expect(f()).toBe("cwd");
  });

  it("loads absolute paths, file: URLs and the default export", async () => {
    await write({ "x.mjs": PLUGIN });
    const def = (await loadExport(`${path.join(dir, "x.mjs")}:default`, { importModule })) as () => string;
    expect(def()).toBe("default");
    const make = (await loadExport(`${pathToFileURL(path.join(dir, "x.mjs")).href}:makeThing`, { importModule })) as (
      o: unknown,
    ) => unknown;
    expect(make(1)).toEqual({ kind: "thing", options: 1 });
  });

  it("resolves an ESM-only package (exports with only an import condition) from node_modules above the config folder", async () => {
    await write({
      "node_modules/@acme/deerflow-plugins/package.json": JSON.stringify({
        name: "@acme/deerflow-plugins",
        type: "module",
        exports: { ".": { import: "./dist/index.js" }, "./extra": { import: "./dist/extra.js" } },
      }),
      "node_modules/@acme/deerflow-plugins/dist/index.js": PLUGIN,
      "node_modules/@acme/deerflow-plugins/dist/extra.js": "export const extra = () => 'extra';",
      "deployments/prod/config.yaml": "",
    });
    const nested = path.join(dir, "deployments", "prod");
    expect(
      await loadExport("@acme/deerflow-plugins:Thing", { configDir: nested, cwd: nested, importModule }),
    ).toBeTypeOf("function");
    const extra = (await loadExport("@acme/deerflow-plugins/extra:extra", {
      configDir: nested,
      importModule,
    })) as () => string;
    expect(extra()).toBe("extra");
  });

  it("falls back to the caller's import() for a package the search folders do not have", async () => {
    const asked: string[] = [];
    const make = (): string => "from the caller's dependencies";
    const exported = await loadExport("acme-only-in-caller-deps:make", {
      cwd: dir,
      importModule: async (specifier) => {
        asked.push(specifier);
        return { make };
      },
    });
    expect(exported).toBe(make);
    expect(asked).toEqual(["acme-only-in-caller-deps"]);
  });

  it("names the specifier and the folders searched when the module is missing", async () => {
    const rel = await pluginError(loadExport("./plugins/nope.js:make", { configDir: dir, cwd: dir, importModule }));
    expect(rel.code).toBe("PLUGIN_NOT_FOUND");
    expect(rel.stage).toBe("module");
    expect(rel.use).toBe("./plugins/nope.js:make");
    expect(rel.message).toBe(
      `Cannot find plugin module "./plugins/nope.js" named by use "./plugins/nope.js:make" (looked in ${dir})`,
    );
    const pkg = await pluginError(
      loadExport("no-such-deerflow-plugin:make", {
        cwd: dir,
        purpose: "chat model",
        importModule,
        importerLabel: "the server",
      }),
    );
    expect(pkg.code).toBe("PLUGIN_NOT_FOUND");
    expect(pkg.message).toBe(
      `Cannot find plugin module "no-such-deerflow-plugin" (chat model) named by use "no-such-deerflow-plugin:make" (looked in ${dir} and the server's dependencies)`,
    );
  });

  it("lists the available exports when the export is missing", async () => {
    await write({ "x.js": PLUGIN });
    const err = await pluginError(loadExport("./x.js:makeThign", { cwd: dir, importModule }));
    expect(err.code).toBe("PLUGIN_EXPORT_MISSING");
    expect(err.stage).toBe("export");
    expect(err.message).toBe(
      'Plugin module "./x.js" has no export "makeThign". Available exports: Thing, default, makeLater, makeThing, notCallable',
    );
  });

  it("says what was expected when the export has the wrong kind", async () => {
    await write({ "x.js": PLUGIN });
    const err = await pluginError(
      loadExport("./x.js:notCallable", { cwd: dir, purpose: "skill scanner", importModule }),
    );
    expect(err.code).toBe("PLUGIN_WRONG_KIND");
    expect(err.stage).toBe("export");
    expect(err.message).toBe(
      'Export "notCallable" of "./x.js" is a string; expected a function or class (skill scanner)',
    );
    const cls = await pluginError(loadExport("./x.js:makeThing", { cwd: dir, expect: "class", importModule }));
    expect(cls.message).toBe('Export "makeThing" of "./x.js" is a function; expected a class');
    expect(await loadExport("./x.js:notCallable", { cwd: dir, expect: "any", importModule })).toBe("hello");
  });

  it("reports a module that throws, or misses a dependency, as a load failure", async () => {
    await write({
      "throws.js": "throw new Error('boom at import');",
      "dep.js": "import 'definitely-missing-dep-xyz'; export const x = 1;",
    });
    const thrown = await pluginError(loadExport("./throws.js:x", { cwd: dir, importModule }));
    expect(thrown.code).toBe("PLUGIN_LOAD_FAILED");
    expect(thrown.stage).toBe("module");
    expect(thrown.message).toBe('Plugin module "./throws.js" failed to load: boom at import');
    expect((thrown.cause as Error).message).toBe("boom at import");
    const dep = await pluginError(loadExport("./dep.js:x", { cwd: dir, importModule }));
    expect(dep.code).toBe("PLUGIN_LOAD_FAILED");
    expect(dep.message).toContain("definitely-missing-dep-xyz");
  });
});

describe("loadPlugin", () => {
  const check = (v: unknown): v is { options: unknown } => typeof v === "object" && v !== null && "options" in v;

  it("constructs classes and calls (and awaits) factories with the options", async () => {
    await write({ "x.js": PLUGIN });
    const opts = {
      cwd: dir,
      importModule,
      options: { n: 1 },
      purpose: "thing",
      shape: "an object with options",
      check,
    };
    expect(await loadPlugin("./x.js:Thing", opts)).toEqual({ options: { n: 1 } });
    expect(await loadPlugin("./x.js:makeThing", opts)).toEqual({ kind: "thing", options: { n: 1 } });
    expect(await loadPlugin("./x.js:makeLater", opts)).toEqual({ later: true, options: { n: 1 } });
  });

  it("passes {} when no options are given", async () => {
    await write({ "x.js": PLUGIN });
    expect(await loadPlugin("./x.js:Thing", { cwd: dir, importModule, purpose: "thing", shape: "x", check })).toEqual({
      options: {},
    });
  });

  it("rejects a result that fails the check", async () => {
    await write({ "x.js": PLUGIN });
    const err = await pluginError(
      loadPlugin("./x.js:default", {
        cwd: dir,
        importModule,
        purpose: "sandbox provider",
        shape: "a SandboxProvider",
        check,
      }),
    );
    expect(err.code).toBe("PLUGIN_WRONG_KIND");
    expect(err.stage).toBe("instance");
    expect(err.message).toBe(
      'Plugin "./x.js:default" produced a string, not a sandbox provider: expected a SandboxProvider',
    );
  });

  it("rejects an export that is not callable before creating anything", async () => {
    await write({ "x.js": PLUGIN });
    const err = await pluginError(
      loadPlugin("./x.js:notCallable", { cwd: dir, importModule, purpose: "thing", shape: "x", check }),
    );
    expect([err.code, err.stage]).toEqual(["PLUGIN_WRONG_KIND", "export"]);
  });

  it("reports a throwing constructor or factory, keeping the cause", async () => {
    await write({
      "x.js":
        "export class Bad { constructor() { throw new Error('no region'); } }\nexport async function later() { throw new Error('no key'); }",
    });
    const err = await pluginError(
      loadPlugin("./x.js:Bad", { cwd: dir, importModule, purpose: "thing", shape: "x", check }),
    );
    expect(err.code).toBe("PLUGIN_LOAD_FAILED");
    expect(err.stage).toBe("instance");
    expect(err.message).toBe('Plugin "./x.js:Bad" (thing) threw while being created: no region');
    expect((err.cause as Error).message).toBe("no region");
    const factory = await pluginError(
      loadPlugin("./x.js:later", { cwd: dir, importModule, purpose: "thing", shape: "x", check }),
    );
    expect(factory.message).toBe('Plugin "./x.js:later" (thing) threw while being created: no key');
  });
});
