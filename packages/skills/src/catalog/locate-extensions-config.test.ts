import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { rejectionOf } from "../../test/support/custom/fixtures.js";
import {
  EXTENSIONS_CONFIG_FILE_NAMES,
  EXTENSIONS_CONFIG_PATH_ENV,
  locateExtensionsConfig,
} from "./locate-extensions-config.js";
import { makeTempDir } from "../../test/support/catalog/fixtures.js";

let tmp: string;
let cwd: string;
let rootParent: string;
beforeEach(async () => {
  tmp = await makeTempDir("skills-locate-");
  cwd = path.join(tmp, "work");
  rootParent = path.join(tmp, "project");
  await fs.mkdir(cwd);
  await fs.mkdir(rootParent);
});
afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

const touch = (file: string): Promise<void> => fs.writeFile(file, "{}");

describe("locateExtensionsConfig", () => {
  it("uses DeerFlow's names: extensions_config.json, then the legacy mcp_config.json", () => {
    expect(EXTENSIONS_CONFIG_FILE_NAMES).toEqual(["extensions_config.json", "mcp_config.json"]);
    expect(EXTENSIONS_CONFIG_PATH_ENV).toBe("DEER_FLOW_EXTENSIONS_CONFIG_PATH");
  });

  it("prefers the explicit path over the environment and the search", async () => {
    await touch(path.join(tmp, "explicit.json"));
    await touch(path.join(tmp, "env.json"));
    await touch(path.join(cwd, "extensions_config.json"));
    const loc = await locateExtensionsConfig({
      explicit: { path: "../explicit.json", label: "--extensions-config" },
      env: { [EXTENSIONS_CONFIG_PATH_ENV]: path.join(tmp, "env.json") },
      searchDirs: [cwd],
      cwd,
    });
    expect(loc).toEqual({ path: path.join(tmp, "explicit.json"), source: "explicit", exists: true, searched: [] });
  });

  it("uses the environment variable (relative to cwd) before the search", async () => {
    await touch(path.join(tmp, "env.json"));
    await touch(path.join(cwd, "extensions_config.json"));
    const loc = await locateExtensionsConfig({
      env: { [EXTENSIONS_CONFIG_PATH_ENV]: "../env.json" },
      searchDirs: [cwd],
      cwd,
    });
    expect(loc).toMatchObject({ path: path.join(tmp, "env.json"), source: "environment", exists: true });
  });

  it("treats an empty explicit path and an empty variable as unset", async () => {
    await touch(path.join(cwd, "extensions_config.json"));
    const loc = await locateExtensionsConfig({
      explicit: { path: "", label: "x" },
      env: { [EXTENSIONS_CONFIG_PATH_ENV]: "" },
      searchDirs: [cwd],
      cwd,
    });
    expect(loc).toMatchObject({ path: path.join(cwd, "extensions_config.json"), source: "search" });
  });

  it("fails with CONFIG_NOT_FOUND naming the flag and the path when the explicit file is missing", async () => {
    await touch(path.join(cwd, "extensions_config.json"));
    const err = await rejectionOf(
      locateExtensionsConfig({
        explicit: { path: "nope.json", label: "`--extensions-config`" },
        searchDirs: [cwd],
        cwd,
        env: {},
      }),
    );
    expect(err.code).toBe("CONFIG_NOT_FOUND");
    expect(err.message).toBe(
      `Extensions config file specified by \`--extensions-config\` not found at ${path.join(cwd, "nope.json")}`,
    );
  });

  it("fails with DeerFlow's message when the variable names a missing file, instead of searching", async () => {
    await touch(path.join(cwd, "extensions_config.json"));
    const missing = path.join(tmp, "gone.json");
    const err = await rejectionOf(
      locateExtensionsConfig({ env: { [EXTENSIONS_CONFIG_PATH_ENV]: missing }, searchDirs: [cwd], cwd }),
    );
    expect(err.code).toBe("CONFIG_NOT_FOUND");
    expect(err.message).toBe(
      `Extensions config file specified by environment variable \`DEER_FLOW_EXTENSIONS_CONFIG_PATH\` not found at ${missing}`,
    );
  });

  it("refuses an explicit path that is a folder", async () => {
    const err = await rejectionOf(
      locateExtensionsConfig({ explicit: { path: tmp, label: "--extensions-config" }, searchDirs: [], cwd, env: {} }),
    );
    expect(err.code).toBe("CONFIG_NOT_FOUND");
    expect(err.message).toBe(`Extensions config file specified by --extensions-config is not a file: ${tmp}`);
  });

  it("returns a missing explicit file when the caller allows it (it will be created there)", async () => {
    await touch(path.join(cwd, "extensions_config.json"));
    const loc = await locateExtensionsConfig({
      explicit: { path: "later.json", label: "x", mayBeMissing: true },
      searchDirs: [cwd],
      cwd,
      env: {},
    });
    expect(loc).toEqual({ path: path.join(cwd, "later.json"), source: "explicit", exists: false, searched: [] });
  });

  it("searches every folder for extensions_config.json before any mcp_config.json", async () => {
    await touch(path.join(cwd, "mcp_config.json"));
    await touch(path.join(rootParent, "extensions_config.json"));
    const loc = await locateExtensionsConfig({ searchDirs: [cwd, rootParent], cwd, env: {} });
    expect(loc).toMatchObject({
      path: path.join(rootParent, "extensions_config.json"),
      source: "search",
      exists: true,
    });
    expect(loc.searched).toEqual([
      path.join(cwd, "extensions_config.json"),
      path.join(rootParent, "extensions_config.json"),
    ]);
  });

  it("falls back to mcp_config.json in the search order", async () => {
    await touch(path.join(rootParent, "mcp_config.json"));
    await touch(path.join(cwd, "mcp_config.json"));
    const loc = await locateExtensionsConfig({ searchDirs: [cwd, rootParent], cwd, env: {} });
    expect(loc).toMatchObject({ path: path.join(cwd, "mcp_config.json"), source: "search" });
  });

  it("skips candidates that are folders and searches a repeated folder once", async () => {
    await fs.mkdir(path.join(cwd, "extensions_config.json"));
    const loc = await locateExtensionsConfig({ searchDirs: [cwd, `${cwd}/.`, "."], cwd, env: {} });
    expect(loc).toEqual({
      path: undefined,
      source: "none",
      exists: false,
      searched: [path.join(cwd, "extensions_config.json"), path.join(cwd, "mcp_config.json")],
    });
  });

  it("returns the fallback when nothing is found", async () => {
    const loc = await locateExtensionsConfig({ searchDirs: [cwd], fallback: "extensions_config.json", cwd, env: {} });
    expect(loc).toMatchObject({ path: path.join(cwd, "extensions_config.json"), source: "default", exists: false });
  });

  it("reads process.env and process.cwd() by default", async () => {
    const file = path.join(tmp, "from-process-env.json");
    await touch(file);
    const before = process.env[EXTENSIONS_CONFIG_PATH_ENV];
    process.env[EXTENSIONS_CONFIG_PATH_ENV] = file;
    try {
      expect(await locateExtensionsConfig({ searchDirs: [] })).toMatchObject({ path: file, source: "environment" });
    } finally {
      if (before === undefined) delete process.env[EXTENSIONS_CONFIG_PATH_ENV];
      else process.env[EXTENSIONS_CONFIG_PATH_ENV] = before;
    }
  });
});
