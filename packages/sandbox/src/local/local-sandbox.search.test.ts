import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Mount } from "../mount.js";
import { createFixture, expectCode, type Fixture } from "../../test/support/local/thread-fixture.js";

const WS = "/mnt/user-data/workspace";
let fx: Fixture;

async function write(root: string, rel: string, content = "x"): Promise<void> {
  const file = path.join(root, ...rel.split("/"));
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, content);
}

/** `/mnt/data` with `/mnt/data/models` overlaid from elsewhere (its host `models/` is shadowed). */
async function dataMounts(tmp: string): Promise<Mount[]> {
  const data = path.join(tmp, "data");
  const models = path.join(tmp, "models");
  await write(data, "readme.md", "needle in data\n");
  await write(data, "models/shadowed.bin", "needle shadowed\n");
  await write(models, "llama/config.json", '{"needle": true}\n');
  return [
    { virtualPath: "/mnt/data", hostPath: data, readOnly: true },
    { virtualPath: "/mnt/data/models", hostPath: models, readOnly: true },
  ];
}

beforeEach(async () => {
  fx = await createFixture({ extraMounts: dataMounts });
  await write(fx.workspace, "b.txt", "hello\n");
  await write(fx.workspace, "a/x.txt", "Hello World\n");
  await write(fx.workspace, "a/b/c/d.txt", "deep hello\n");
  await write(fx.workspace, "node_modules/pkg/index.js", "hello from deps\n");
  await write(fx.workspace, "server.log", "hello log\n");
  await fs.mkdir(path.join(fx.workspace, "empty"));
});

afterEach(async () => {
  await fs.rm(fx.tmp, { recursive: true, force: true });
});

describe("LocalSandbox.listDir", () => {
  it("lists two levels by default: sorted virtual paths, directories with /, ignored names left out", async () => {
    expect(await fx.sandbox.listDir(WS)).toEqual([
      `${WS}/a/`,
      `${WS}/a/b/`,
      `${WS}/a/x.txt`,
      `${WS}/b.txt`,
      `${WS}/empty/`,
    ]);
  });

  it("honours maxDepth", async () => {
    expect(await fx.sandbox.listDir(`${WS}/`, { maxDepth: 1 })).toEqual([`${WS}/a/`, `${WS}/b.txt`, `${WS}/empty/`]);
    expect(await fx.sandbox.listDir(WS, { maxDepth: 4 })).toContain(`${WS}/a/b/c/d.txt`);
  });

  it("rejects a depth below 1", async () => {
    await expectCode(fx.sandbox.listDir(WS, { maxDepth: 0 }), "INVALID_ARGUMENT");
  });

  it("reports missing directories and files", async () => {
    const err = await expectCode(fx.sandbox.listDir(`${WS}/nope`), "NOT_FOUND");
    expect(err.message).toBe(`Directory not found: ${WS}/nope`);
    await expectCode(fx.sandbox.listDir(`${WS}/b.txt`), "NOT_A_DIRECTORY");
  });

  it("overlays a nested mount once, with its own content instead of the shadowed folder", async () => {
    expect(await fx.sandbox.listDir("/mnt/data")).toEqual([
      "/mnt/data/models/",
      "/mnt/data/models/llama/",
      "/mnt/data/readme.md",
    ]);
    expect(await fx.sandbox.listDir("/mnt/data", { maxDepth: 3 })).toContain("/mnt/data/models/llama/config.json");
    expect(await fx.sandbox.listDir("/mnt/data", { maxDepth: 3 })).not.toContain("/mnt/data/models/shadowed.bin");
  });

  it("lists a parent that exists only through its mounts", async () => {
    expect(await fx.sandbox.listDir("/mnt/user-data", { maxDepth: 1 })).toEqual([
      "/mnt/user-data/outputs/",
      "/mnt/user-data/uploads/",
      "/mnt/user-data/workspace/",
    ]);
    expect(await fx.sandbox.listDir("/mnt/user-data")).toContain(`${WS}/b.txt`);
  });

  it("refuses directories that are neither mounted nor parents of mounts", async () => {
    await expectCode(fx.sandbox.listDir("/etc"), "PATH_NOT_ALLOWED");
  });
});

describe("LocalSandbox.glob", () => {
  it("returns sorted virtual paths", async () => {
    expect(await fx.sandbox.glob(WS, "**/*.txt")).toEqual({
      matches: [`${WS}/a/b/c/d.txt`, `${WS}/a/x.txt`, `${WS}/b.txt`],
      truncated: false,
    });
  });

  it("matches a slash-less pattern at any depth and anchors one with a slash", async () => {
    expect((await fx.sandbox.glob(WS, "*.txt")).matches).toEqual([`${WS}/a/b/c/d.txt`, `${WS}/a/x.txt`, `${WS}/b.txt`]);
    expect((await fx.sandbox.glob(WS, "a/*.txt")).matches).toEqual([`${WS}/a/x.txt`]);
  });

  it("includes directories on request", async () => {
    expect((await fx.sandbox.glob(WS, "a/*", { includeDirs: true })).matches).toEqual([`${WS}/a/b`, `${WS}/a/x.txt`]);
  });

  it("searches nested mounts in place of the folders they shadow", async () => {
    expect((await fx.sandbox.glob("/mnt/data", "**/*", { includeDirs: true })).matches).toEqual([
      "/mnt/data/models",
      "/mnt/data/models/llama",
      "/mnt/data/models/llama/config.json",
      "/mnt/data/readme.md",
    ]);
  });

  it("searches every mount below a parent that is not mounted itself", async () => {
    await write(fx.uploads, "report.txt");
    expect((await fx.sandbox.glob("/mnt/user-data", "**/*.txt")).matches).toContain(
      "/mnt/user-data/uploads/report.txt",
    );
  });

  it("caps results and reports truncation", async () => {
    for (let i = 0; i < 12; i++) await write(fx.workspace, `many/f${String(i).padStart(2, "0")}.txt`);
    const capped = await fx.sandbox.glob(`${WS}/many`, "*.txt", { maxResults: 10 });
    expect(capped.matches).toHaveLength(10);
    expect(capped.truncated).toBe(true);
    expect((await fx.sandbox.glob(`${WS}/many`, "*.txt", { maxResults: 12 })).truncated).toBe(false);
  });

  it("reports missing roots, file roots and bad patterns", async () => {
    await expectCode(fx.sandbox.glob(`${WS}/nope`, "*"), "NOT_FOUND");
    await expectCode(fx.sandbox.glob(`${WS}/b.txt`, "*"), "NOT_A_DIRECTORY");
    await expectCode(fx.sandbox.glob(WS, ""), "INVALID_ARGUMENT");
  });
});

describe("LocalSandbox.grep", () => {
  it("matches case-insensitively with virtual paths, skipping ignored files", async () => {
    const result = await fx.sandbox.grep(WS, "hello");
    expect(result).toEqual({
      matches: [
        { path: `${WS}/a/b/c/d.txt`, line: 1, text: "deep hello" },
        { path: `${WS}/a/x.txt`, line: 1, text: "Hello World" },
        { path: `${WS}/b.txt`, line: 1, text: "hello" },
      ],
      truncated: false,
    });
  });

  it("searches a single file", async () => {
    expect((await fx.sandbox.grep(`${WS}/a/x.txt`, "world")).matches).toEqual([
      { path: `${WS}/a/x.txt`, line: 1, text: "Hello World" },
    ]);
  });

  it("searches nested mounts, not the folders they shadow", async () => {
    expect((await fx.sandbox.grep("/mnt/data", "needle")).matches.map((m) => m.path)).toEqual([
      "/mnt/data/models/llama/config.json",
      "/mnt/data/readme.md",
    ]);
  });

  it("reports an invalid regex before searching", async () => {
    const err = await expectCode(fx.sandbox.grep(WS, "(unclosed"), "INVALID_ARGUMENT");
    expect(err.message).toMatch(/^Invalid regex pattern: /);
  });

  it("caps matches and reports truncation", async () => {
    await write(fx.workspace, "hits.txt", "hello\n".repeat(20));
    const result = await fx.sandbox.grep(`${WS}/hits.txt`, "hello", { maxResults: 5 });
    expect(result.matches).toHaveLength(5);
    expect(result.truncated).toBe(true);
  });

  it("reports a missing root", async () => {
    await expectCode(fx.sandbox.grep(`${WS}/nope`, "x"), "NOT_FOUND");
  });
});
