import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { globFiles } from "./glob.js";

let tmp: string;
let root: string;

async function write(rel: string, content = "x"): Promise<void> {
  const file = path.join(root, ...rel.split("/"));
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, content);
}

beforeEach(async () => {
  tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "sandbox-glob-")));
  root = path.join(tmp, "root");
  await fs.mkdir(root);
  await write("main.py");
  await write("src/app.py");
  await write("src/util/helpers.py");
  await write("src/util/readme.md");
  await write("node_modules/dep/index.py");
  await write(".venv/lib/site.py");
  await write("build/gen.py");
  await write("logs.py/x.py");
  await write("trace.log");
});

afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

describe("globFiles", () => {
  it("finds files at any depth with **, sorted, skipping ignored trees", async () => {
    const result = await globFiles(root, "**/*.py");
    expect(result).toEqual({ matches: ["logs.py/x.py", "main.py", "src/app.py", "src/util/helpers.py"], truncated: false });
  });

  it("matches a slash-less pattern against file names at any depth", async () => {
    expect((await globFiles(root, "*.py")).matches).toEqual(["logs.py/x.py", "main.py", "src/app.py", "src/util/helpers.py"]);
  });

  it("matches **/x at the root", async () => {
    expect((await globFiles(root, "**/main.py")).matches).toEqual(["main.py"]);
  });

  it("anchors patterns containing a slash", async () => {
    expect((await globFiles(root, "src/*.py")).matches).toEqual(["src/app.py"]);
  });

  it("returns directories only when asked", async () => {
    expect((await globFiles(root, "src/*")).matches).toEqual(["src/app.py"]);
    expect((await globFiles(root, "src/*", { includeDirs: true })).matches).toEqual(["src/app.py", "src/util"]);
  });

  it("never includes ignored files such as *.log", async () => {
    expect((await globFiles(root, "**")).matches).not.toContain("trace.log");
  });

  it("truncates one past the cap and reports it", async () => {
    for (let i = 0; i < 5; i++) await write(`many/f${i}.txt`);
    expect(await globFiles(root, "many/*.txt", { maxResults: 3 })).toEqual({
      matches: ["many/f0.txt", "many/f1.txt", "many/f2.txt"],
      truncated: true,
    });
    expect((await globFiles(root, "many/*.txt", { maxResults: 5 })).truncated).toBe(false);
  });

  it("caps at 1000 and defaults to 200", async () => {
    await Promise.all(Array.from({ length: 1005 }, (_, i) => write(`bulk/${String(i).padStart(4, "0")}.txt`)));
    const defaulted = await globFiles(root, "bulk/*.txt");
    expect(defaulted.matches).toHaveLength(200);
    expect(defaulted.truncated).toBe(true);
    const capped = await globFiles(root, "bulk/*.txt", { maxResults: 5000 });
    expect(capped.matches).toHaveLength(1000);
    expect(capped.truncated).toBe(true);
  });

  it("skips symlinks leaving the boundary and never walks through symlinked directories", async () => {
    const outside = path.join(tmp, "outside");
    await fs.mkdir(outside);
    await fs.writeFile(path.join(outside, "secret.py"), "x");
    await fs.symlink(outside, path.join(root, "escape-dir"));
    await fs.symlink(path.join(outside, "secret.py"), path.join(root, "escape.py"));
    const result = await globFiles(root, "**", { includeDirs: true });
    expect(result.matches.filter((m) => m.includes("escape") || m.includes("secret"))).toEqual([]);
  });

  it("lists in-boundary symlinks as their target kind without descending into them", async () => {
    await fs.symlink("src", path.join(root, "src-link"));
    await fs.symlink("main.py", path.join(root, "alias.py"));
    const result = await globFiles(root, "**", { includeDirs: true });
    expect(result.matches).toContain("alias.py");
    expect(result.matches).toContain("src-link");
    expect(result.matches).not.toContain("src-link/app.py");
  });

  it("prefixes relative paths and omits overlaid subtrees", async () => {
    const result = await globFiles(root, "pub/src/*.py", { pathPrefix: "pub", omit: (rel) => rel === "src/util" });
    expect(result.matches).toEqual(["pub/src/app.py"]);
    const all = await globFiles(root, "**/*.py", { omit: (rel) => rel === "src/util" });
    expect(all.matches).not.toContain("src/util/helpers.py");
  });
});
