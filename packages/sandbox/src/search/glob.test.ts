import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DirHandle, usingDir } from "../paths/dir-handle.js";
import { globFiles, type GlobFilesOptions } from "./glob.js";

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

/** globFiles over `root`, opened for the call. */
function glob(pattern: string, options?: GlobFilesOptions) {
  return usingDir(DirHandle.open(root), (dir) => globFiles(dir, pattern, options));
}

describe("globFiles", () => {
  it("finds files at any depth with **, sorted, skipping ignored trees", async () => {
    const result = await glob("**/*.py");
    expect(result).toEqual({
      matches: ["logs.py/x.py", "main.py", "src/app.py", "src/util/helpers.py"],
      truncated: false,
    });
  });

  it("matches a slash-less pattern against file names at any depth", async () => {
    expect((await glob("*.py")).matches).toEqual(["logs.py/x.py", "main.py", "src/app.py", "src/util/helpers.py"]);
  });

  it("matches **/x at the root", async () => {
    expect((await glob("**/main.py")).matches).toEqual(["main.py"]);
  });

  it("anchors patterns containing a slash", async () => {
    expect((await glob("src/*.py")).matches).toEqual(["src/app.py"]);
  });

  it("returns directories only when asked", async () => {
    expect((await glob("src/*")).matches).toEqual(["src/app.py"]);
    expect((await glob("src/*", { includeDirs: true })).matches).toEqual(["src/app.py", "src/util"]);
  });

  it("never includes ignored files such as *.log", async () => {
    expect((await glob("**")).matches).not.toContain("trace.log");
  });

  it("truncates one past the cap and reports it", async () => {
    for (let i = 0; i < 5; i++) await write(`many/f${i}.txt`);
    expect(await glob("many/*.txt", { maxResults: 3 })).toEqual({
      matches: ["many/f0.txt", "many/f1.txt", "many/f2.txt"],
      truncated: true,
    });
    expect((await glob("many/*.txt", { maxResults: 5 })).truncated).toBe(false);
  });

  it("caps at 1000 and defaults to 200", async () => {
    await Promise.all(Array.from({ length: 1005 }, (_, i) => write(`bulk/${String(i).padStart(4, "0")}.txt`)));
    const defaulted = await glob("bulk/*.txt");
    expect(defaulted.matches).toHaveLength(200);
    expect(defaulted.truncated).toBe(true);
    const capped = await glob("bulk/*.txt", { maxResults: 5000 });
    expect(capped.matches).toHaveLength(1000);
    expect(capped.truncated).toBe(true);
  });

  it("skips symlinks when no classifyLink is given, and never walks through symlinked directories", async () => {
    const outside = path.join(tmp, "outside");
    await fs.mkdir(outside);
    await fs.writeFile(path.join(outside, "secret.py"), "x");
    await fs.symlink(outside, path.join(root, "escape-dir"));
    await fs.symlink(path.join(outside, "secret.py"), path.join(root, "escape.py"));
    const result = await glob("**", { includeDirs: true });
    expect(result.matches.filter((m) => m.includes("escape") || m.includes("secret"))).toEqual([]);
  });

  it("counts a symlink as the kind classifyLink gives it, without descending into it", async () => {
    await fs.symlink("src", path.join(root, "src-link"));
    await fs.symlink("main.py", path.join(root, "alias.py"));
    await fs.symlink("/etc", path.join(root, "etc-link"));
    const asked: string[] = [];
    const kinds: Record<string, "file" | "directory"> = { "src-link": "directory", "alias.py": "file" };
    const classifyLink = async (rel: string) => {
      asked.push(rel);
      return kinds[rel];
    };
    const result = await glob("**", { includeDirs: true, classifyLink });
    expect(result.matches).toContain("alias.py");
    expect(result.matches).toContain("src-link");
    expect(result.matches).not.toContain("etc-link");
    expect(result.matches).not.toContain("src-link/app.py");
    expect(asked.sort()).toEqual(["alias.py", "etc-link", "src-link"]);
    expect((await glob("**")).matches).not.toContain("src-link");
  });

  it("prefixes relative paths and omits overlaid subtrees", async () => {
    const result = await glob("pub/src/*.py", { pathPrefix: "pub", omit: (rel) => rel === "src/util" });
    expect(result.matches).toEqual(["pub/src/app.py"]);
    const all = await glob("**/*.py", { omit: (rel) => rel === "src/util" });
    expect(all.matches).not.toContain("src/util/helpers.py");
  });
});
