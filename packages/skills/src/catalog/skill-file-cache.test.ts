import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SkillFileCache } from "./skill-file-cache.js";
import { makeTempDir, skillMarkdown, writeSkill } from "../../test/support/catalog/fixtures.js";

let tmp: string;
beforeEach(async () => {
  tmp = await makeTempDir();
});
afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

const opts = () => ({ category: "public" as const, categoryRoot: tmp });

describe("SkillFileCache", () => {
  it("returns the previous result for an unchanged file", async () => {
    const file = await writeSkill(tmp, "a", skillMarkdown("a", "first"));
    const cache = new SkillFileCache();
    const one = await cache.load(file, opts());
    expect(await cache.load(file, opts())).toBe(one);
  });

  it("re-parses an edit of the same size even when the mtime is restored", async () => {
    const file = await writeSkill(tmp, "a", skillMarkdown("a", "AAAA"));
    const cache = new SkillFileCache();
    await cache.load(file, opts());
    const { atime, mtime } = await fs.stat(file);
    await fs.writeFile(file, skillMarkdown("a", "BBBB"));
    await fs.utimes(file, atime, mtime);
    const again = await cache.load(file, opts());
    expect(again.ok && again.skill.description).toBe("BBBB");
  });

  it("re-parses a file replaced by rename", async () => {
    const file = await writeSkill(tmp, "a", skillMarkdown("a", "old"));
    const cache = new SkillFileCache();
    await cache.load(file, opts());
    const temp = path.join(tmp, "a", ".tmp");
    await fs.writeFile(temp, skillMarkdown("a", "new"));
    await fs.rename(temp, file);
    const again = await cache.load(file, opts());
    expect(again.ok && again.skill.description).toBe("new");
  });

  it("keys on the category root, so the same file under another root is parsed again", async () => {
    const file = await writeSkill(tmp, "ns/a", skillMarkdown("a", "d"));
    const cache = new SkillFileCache();
    const one = await cache.load(file, opts());
    const other = await cache.load(file, { category: "public", categoryRoot: path.join(tmp, "ns") });
    expect(other).not.toBe(one);
    expect(other.ok && other.skill.relativePath).toBe("a");
  });

  it("forgets files not seen during the last scan", async () => {
    const a = await writeSkill(tmp, "a", skillMarkdown("a", "d"));
    const b = await writeSkill(tmp, "b", skillMarkdown("b", "d"));
    const cache = new SkillFileCache();
    cache.beginScan();
    await cache.load(a, opts());
    await cache.load(b, opts());
    cache.endScan();
    cache.beginScan();
    await cache.load(a, opts());
    cache.endScan();
    expect(cache.size).toBe(1);
  });

  it("does not cache a missing file", async () => {
    const cache = new SkillFileCache();
    const result = await cache.load(path.join(tmp, "gone", "SKILL.md"), opts());
    expect(result.ok).toBe(false);
    expect(cache.size).toBe(0);
  });
});
