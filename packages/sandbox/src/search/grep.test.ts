import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SandboxError } from "../errors.js";
import { DirHandle, usingDir } from "../paths/dir-handle.js";
import { compileSearchRegex, grepFiles, truncateMatchLine, type GrepFilesOptions } from "./grep.js";

let tmp: string;
let root: string;

async function write(rel: string, content: string | Buffer): Promise<void> {
  const file = path.join(root, ...rel.split("/"));
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, content);
}

beforeEach(async () => {
  tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "sandbox-grep-")));
  root = path.join(tmp, "root");
  await fs.mkdir(root);
  await write("a.py", "import os\nTODO: fix\nprint('todo')\n");
  await write("src/b.ts", "const x = 1; // TODO\n");
  await write("node_modules/dep/c.js", "TODO in a dependency\n");
});

afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

/** grepFiles over `root`, opened for the call. */
function grep(pattern: string, options?: GrepFilesOptions) {
  return usingDir(DirHandle.open(root), (dir) => grepFiles(dir, pattern, options));
}

describe("grepFiles", () => {
  it("matches case-insensitively by default, in path then line order", async () => {
    const result = await grep("todo");
    expect(result).toEqual({
      matches: [
        { relativePath: "a.py", line: 2, text: "TODO: fix" },
        { relativePath: "a.py", line: 3, text: "print('todo')" },
        { relativePath: "src/b.ts", line: 1, text: "const x = 1; // TODO" },
      ],
      truncated: false,
    });
  });

  it("honours caseSensitive", async () => {
    const result = await grep("todo", { caseSensitive: true });
    expect(result.matches.map((m) => m.line)).toEqual([3]);
  });

  it("accepts a leading (?i) even when case-sensitive", async () => {
    expect((await grep("(?i)todo", { caseSensitive: true })).matches).toHaveLength(3);
  });

  it("escapes the pattern when literal", async () => {
    await write("re.txt", "a.b\naxb\n");
    const result = await grep("a.b", { literal: true, glob: "*.txt" });
    expect(result.matches).toEqual([{ relativePath: "re.txt", line: 1, text: "a.b" }]);
  });

  it("filters files with a glob", async () => {
    expect((await grep("todo", { glob: "**/*.ts" })).matches.map((m) => m.relativePath)).toEqual(["src/b.ts"]);
    expect((await grep("todo", { glob: "src/*.py" })).matches).toEqual([]);
  });

  it("matches a slash-less glob filter against file names at any depth", async () => {
    expect((await grep("todo", { glob: "*.ts" })).matches.map((m) => m.relativePath)).toEqual(["src/b.ts"]);
  });

  it("searches a single file root", async () => {
    const file = await fs.open(path.join(root, "node_modules", "dep", "c.js"));
    try {
      expect((await grepFiles({ file, name: "c.js" }, "dependency")).matches).toEqual([
        { relativePath: "", line: 1, text: "TODO in a dependency" },
      ]);
      expect((await grepFiles({ file, name: "c.js" }, "dependency", { glob: "*.py" })).matches).toEqual([]);
    } finally {
      await file.close();
    }
  });

  it("rejects an invalid regex with INVALID_ARGUMENT", async () => {
    const err = await grep("(unclosed").catch((e: unknown) => e);
    expect(SandboxError.isInstance(err) && err.code).toBe("INVALID_ARGUMENT");
    expect((err as Error).message).toMatch(/^Invalid regex pattern: /);
  });

  it("skips files over 1,000,000 bytes", async () => {
    await write("big.txt", `${"needle\n"}${"x".repeat(1_000_000)}`);
    await write("edge.txt", `needle\n${"x".repeat(1_000_000 - 7)}`);
    const result = await grep("needle");
    expect(result.matches.map((m) => m.relativePath)).toEqual(["edge.txt"]);
  });

  it("skips binary files", async () => {
    await write("bin.dat", Buffer.concat([Buffer.from("needle\n"), Buffer.from([0, 1, 2])]));
    expect((await grep("needle")).matches).toEqual([]);
  });

  it("skips lines over 2000 characters", async () => {
    await write("long.txt", `${"needle".padEnd(2001, "x")}\n${"needle".padEnd(2000, "y")}\n`);
    const result = await grep("needle");
    expect(result.matches.map((m) => m.line)).toEqual([2]);
    expect(result.matches[0]?.text).toBe(`${"needle".padEnd(197, "y")}...`);
  });

  it("skips symlinks under a directory root, even ones pointing inside", async () => {
    const outside = path.join(tmp, "outside");
    await fs.mkdir(outside);
    await fs.writeFile(path.join(outside, "secret.txt"), "needle outside\n");
    await fs.symlink(path.join(outside, "secret.txt"), path.join(root, "leak.txt"));
    await fs.symlink(outside, path.join(root, "leakdir"));
    await write("real.txt", "needle inside\n");
    await fs.symlink("real.txt", path.join(root, "alias.txt"));
    const result = await grep("needle");
    expect(result.matches.map((m) => m.relativePath)).toEqual(["real.txt"]);
  });

  it("stops one past the cap and reports truncation", async () => {
    await write("many.txt", "hit\n".repeat(10));
    const three = await grep("hit", { maxResults: 3 });
    expect(three.matches).toHaveLength(3);
    expect(three.truncated).toBe(true);
    const ten = await grep("hit", { maxResults: 10 });
    expect(ten.truncated).toBe(false);
  });

  it("caps at 500 and defaults to 100", async () => {
    await write("lots.txt", "hit\n".repeat(600));
    expect((await grep("hit")).matches).toHaveLength(100);
    const capped = await grep("hit", { maxResults: 10_000 });
    expect(capped.matches).toHaveLength(500);
    expect(capped.truncated).toBe(true);
  });
});

describe("truncateMatchLine", () => {
  it("keeps lines of up to 200 characters", () => {
    expect(truncateMatchLine("x".repeat(200))).toBe("x".repeat(200));
  });

  it("cuts longer lines to 197 characters plus ...", () => {
    expect(truncateMatchLine("x".repeat(201))).toBe(`${"x".repeat(197)}...`);
  });

  it("never splits a surrogate pair", () => {
    const line = "😀".repeat(150);
    expect(truncateMatchLine(line)).toBe(line);
    expect(truncateMatchLine("😀".repeat(250))).toBe(`${"😀".repeat(197)}...`);
  });
});

describe("compileSearchRegex", () => {
  it("is stateless across calls", () => {
    const re = compileSearchRegex("a", false, false);
    expect(re.test("a")).toBe(true);
    expect(re.test("a")).toBe(true);
  });
});
