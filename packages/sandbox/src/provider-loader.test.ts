import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SandboxError } from "./errors.js";
import { isSandboxProvider, loadSandboxProvider, parseProviderUse } from "./provider-loader.js";

describe("parseProviderUse", () => {
  it("splits at the last colon", () => {
    expect(parseProviderUse("@deerflow/sandbox:LocalSandboxProvider")).toEqual({
      specifier: "@deerflow/sandbox",
      exportName: "LocalSandboxProvider",
    });
    expect(parseProviderUse("node:module:thing")).toEqual({ specifier: "node:module", exportName: "thing" });
  });

  it.each(["", "noColon", ":Export", "mod:", "mod:not-an-identifier"])("rejects %j", (use) => {
    expect(() => parseProviderUse(use)).toThrow(/Invalid provider "use"/);
  });
});

describe("loadSandboxProvider", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "provider-loader-"));
    const methods = [
      "acquire() { return Promise.resolve(null); }",
      "get() { return undefined; }",
      "release() { return Promise.resolve(); }",
      "shutdown() { return Promise.resolve(); }",
    ];
    await writeFile(
      path.join(dir, "plugin.mjs"),
      `export class ClassProvider { constructor(o) { this.options = o; } ${methods.join(" ")} }
       export async function factoryProvider(o) { return { options: o, ${methods.join(", ")} }; }
       export function notAProvider() { return { acquire() {} }; }
       export class ThrowingProvider { constructor() { throw new RangeError("no capacity left"); } }
       export const value = 42;`,
    );
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("constructs an exported class with the options", async () => {
    const p = await loadSandboxProvider(
      { use: "./plugin.mjs:ClassProvider", options: { a: 1 } },
      pathToFileURL(`${dir}/`),
    );
    expect(isSandboxProvider(p)).toBe(true);
    expect((p as unknown as { options: unknown }).options).toEqual({ a: 1 });
  });

  it("calls an exported factory function", async () => {
    const p = await loadSandboxProvider({
      use: `${pathToFileURL(path.join(dir, "plugin.mjs")).href}:factoryProvider`,
      options: "x",
    });
    expect((p as unknown as { options: unknown }).options).toBe("x");
  });

  it("rejects a missing module, a missing export and a non-provider", async () => {
    const base = pathToFileURL(`${dir}/`);
    const code = (e: unknown) => (SandboxError.isInstance(e) ? e.code : "other");
    await expect(loadSandboxProvider({ use: "./missing.mjs:X" }, base)).rejects.toSatisfy(
      (e) => code(e) === "CONFIG_INVALID",
    );
    await expect(loadSandboxProvider({ use: "./plugin.mjs:Nope" }, base)).rejects.toThrow(
      "has no exported class or function 'Nope'",
    );
    await expect(loadSandboxProvider({ use: "./plugin.mjs:value" }, base)).rejects.toThrow(
      "has no exported class or function 'value'",
    );
    await expect(loadSandboxProvider({ use: "./plugin.mjs:notAProvider" }, base)).rejects.toThrow(
      "did not produce a SandboxProvider",
    );
  });

  it("names the module it could not load, and passes {} when the spec has no options", async () => {
    const base = pathToFileURL(`${dir}/`);
    await expect(loadSandboxProvider({ use: "./missing.mjs:X" }, base)).rejects.toThrow(
      "Cannot load sandbox provider module './missing.mjs'",
    );
    const p = await loadSandboxProvider({ use: "./plugin.mjs:ClassProvider" }, base);
    expect((p as unknown as { options: unknown }).options).toEqual({});
  });

  it("lets a constructor's own error through", async () => {
    await expect(
      loadSandboxProvider({ use: "./plugin.mjs:ThrowingProvider" }, pathToFileURL(`${dir}/`)),
    ).rejects.toThrow(new RangeError("no capacity left"));
  });

  it("resolves relative specifiers against the folder of a file URL", async () => {
    const p = await loadSandboxProvider(
      { use: "./plugin.mjs:factoryProvider", options: 1 },
      pathToFileURL(path.join(dir, "config.yaml")),
    );
    expect((p as unknown as { options: unknown }).options).toBe(1);
  });
});
