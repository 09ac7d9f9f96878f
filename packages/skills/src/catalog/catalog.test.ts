import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SkillsError } from "../errors.js";
import { SkillCatalog, type SkillCatalogOptions } from "./catalog.js";
import { discoverSkills, type DiscoverOptions, type DiscoveryResult } from "./discover.js";
import {
  makeTempDir,
  recordingLogger,
  skillMarkdown,
  writeRealisticTree,
  writeSkill,
} from "../../test/support/catalog/fixtures.js";

let tmp: string;
let root: string;
let configPath: string;
const open: SkillCatalog[] = [];
beforeEach(async () => {
  tmp = await makeTempDir();
  root = path.join(tmp, "skills");
  configPath = path.join(tmp, "extensions_config.json");
  await writeRealisticTree(root);
});
afterEach(async () => {
  for (const c of open.splice(0)) c.close();
  await fs.rm(tmp, { recursive: true, force: true });
});

/** A catalog whose scans are counted and can be held open with a gate. */
function counted(extra: Partial<SkillCatalogOptions> = {}) {
  const stats = { scans: 0 };
  let gate: Promise<void> | undefined;
  let failNext = false;
  const discover = async (options: DiscoverOptions): Promise<DiscoveryResult> => {
    stats.scans++;
    const result = await discoverSkills(options);
    if (gate) await gate;
    if (failNext) {
      failNext = false;
      throw new Error("disk on fire");
    }
    return result;
  };
  const catalog = new SkillCatalog({ root, extensionsConfigPath: configPath, discover, ...extra });
  open.push(catalog);
  return {
    catalog,
    stats,
    hold(): () => void {
      let release!: () => void;
      gate = new Promise<void>((r) => (release = r));
      return () => {
        gate = undefined;
        release();
      };
    },
    failOnce(): void {
      failNext = true;
    },
  };
}

describe("SkillCatalog", () => {
  it("lists every skill with the enabled state from extensions_config.json", async () => {
    await fs.writeFile(configPath, JSON.stringify({ skills: { pdf: { enabled: false } } }));
    const { catalog } = counted();
    const skills = await catalog.list();
    expect(skills.find((s) => s.name === "pdf")?.enabled).toBe(false);
    expect(skills.find((s) => s.name === "deep-research")?.enabled).toBe(true);
    expect((await catalog.enabledSkills()).map((s) => s.name)).not.toContain("pdf");
  });

  it("treats a malformed config as everything enabled and logs it", async () => {
    await fs.writeFile(configPath, "{ broken");
    const logger = recordingLogger();
    const { catalog } = counted({ logger });
    expect((await catalog.list()).every((s) => s.enabled)).toBe(true);
    expect(logger.calls.some((c) => c.level === "warn" && c.msg.includes("invalid extensions config"))).toBe(true);
  });

  it("returns the shadow-resolved skill from get()", async () => {
    const { catalog } = counted();
    expect((await catalog.get("deep-research"))?.category).toBe("custom");
    expect(await catalog.get("nope")).toBeUndefined();
  });

  it("exposes the scan diagnostics", async () => {
    const { catalog } = counted();
    const codes = (await catalog.diagnostics()).map((d) => d.code).sort();
    expect(codes).toEqual(["skill-shadowed", "yaml-invalid"]);
  });

  it("serves later reads from the cache with the same frozen array", async () => {
    const { catalog, stats } = counted();
    const first = await catalog.list();
    const second = await catalog.list();
    await catalog.get("pdf");
    expect(second).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first[0])).toBe(true);
    expect(stats.scans).toBe(1);
  });

  it("picks up an edit of an existing SKILL.md on reload", async () => {
    const { catalog } = counted();
    expect((await catalog.get("my-notes"))?.description).toBe("Keep notes.");
    const file = path.join(root, "custom", "my-notes", "SKILL.md");
    const { atime, mtime } = await fs.stat(file);
    await fs.writeFile(file, skillMarkdown("my-notes", "Lose notes."));
    await fs.utimes(file, atime, mtime);
    await catalog.reload();
    expect((await catalog.get("my-notes"))?.description).toBe("Lose notes.");
  });

  it("drops a deleted skill on reload", async () => {
    const { catalog } = counted();
    await catalog.list();
    await fs.rm(path.join(root, "custom", "my-notes"), { recursive: true });
    expect((await catalog.reload()).map((s) => s.name)).not.toContain("my-notes");
  });

  it("coalesces concurrent reloads into one scan", async () => {
    const { catalog, stats } = counted();
    const results = await Promise.all([catalog.reload(), catalog.reload(), catalog.list(), catalog.reload()]);
    expect(stats.scans).toBe(1);
    expect(new Set(results).size).toBe(1);
  });

  it("rescans after invalidate()", async () => {
    const { catalog, stats } = counted();
    await catalog.list();
    await writeSkill(root, "custom/new-one", skillMarkdown("new-one", "fresh"));
    catalog.invalidate();
    expect((await catalog.list()).map((s) => s.name)).toContain("new-one");
    expect(stats.scans).toBe(2);
  });

  it("runs exactly one more scan when invalidated during a scan, so stale results never stick", async () => {
    const { catalog, stats, hold } = counted();
    const release = hold();
    const pending = catalog.list();
    await vi.waitFor(() => expect(stats.scans).toBe(1));
    await writeSkill(root, "custom/late", skillMarkdown("late", "added mid-scan"));
    catalog.invalidate();
    catalog.invalidate();
    release();
    const skills = await pending;
    expect(skills.map((s) => s.name)).toContain("late");
    expect(stats.scans).toBe(2);
    expect(await catalog.list()).toBe(skills);
  });

  it("keeps the last-known-good list when a scan fails: reload rethrows, list serves it", async () => {
    const logger = recordingLogger();
    const { catalog, failOnce } = counted({ logger });
    const good = await catalog.list();
    failOnce();
    await expect(catalog.reload()).rejects.toThrow("disk on fire");
    failOnce();
    expect(await catalog.list()).toBe(good);
    expect(logger.calls.some((c) => c.level === "error")).toBe(true);
  });

  it("retries on the next read after a failed scan", async () => {
    const { catalog, stats, failOnce } = counted();
    const good = await catalog.list();
    failOnce();
    await expect(catalog.reload()).rejects.toThrow("disk on fire");
    const next = await catalog.list();
    expect(next).not.toBe(good);
    expect(next).toEqual(good);
    expect(stats.scans).toBe(3);
  });

  it("rethrows a failed first scan", async () => {
    const { catalog, failOnce } = counted();
    failOnce();
    await expect(catalog.list()).rejects.toThrow("disk on fire");
    expect((await catalog.list()).length).toBeGreaterThan(0);
  });

  it("setEnabled writes the config and updates the cache without a rescan", async () => {
    await fs.writeFile(configPath, JSON.stringify({ mcpServers: { x: {} } }));
    const { catalog, stats } = counted();
    await catalog.list();
    const updated = await catalog.setEnabled("pdf", false);
    expect(updated).toMatchObject({ name: "pdf", enabled: false });
    expect((await catalog.get("pdf"))?.enabled).toBe(false);
    expect((await catalog.enabledSkills()).some((s) => s.name === "pdf")).toBe(false);
    expect(stats.scans).toBe(1);
    expect(JSON.parse(await fs.readFile(configPath, "utf8"))).toEqual({
      mcpServers: { x: {} },
      skills: { pdf: { enabled: false } },
    });
  });

  it("keeps a toggle made while a scan is reading the old config", async () => {
    await fs.writeFile(configPath, "{}");
    const { catalog } = counted();
    await catalog.list();
    const realReadFile = fs.readFile.bind(fs);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let staleReadStarted = false;
    // The scan's config read sees the old file, then stalls until after the toggle.
    const spy = vi.spyOn(fs, "readFile").mockImplementation((async (file: string, opts: unknown) => {
      const text = await realReadFile(file, opts as never);
      if (file === configPath && !staleReadStarted) {
        staleReadStarted = true;
        await gate;
      }
      return text;
    }) as typeof fs.readFile);
    try {
      const rescan = catalog.reload();
      await vi.waitFor(() => expect(staleReadStarted).toBe(true));
      await catalog.setEnabled("pdf", false);
      release();
      await rescan;
      expect((await catalog.get("pdf"))?.enabled).toBe(false);
    } finally {
      spy.mockRestore();
    }
  });

  it("rejects setEnabled for an unknown skill", async () => {
    const { catalog } = counted();
    await expect(catalog.setEnabled("ghost", false)).rejects.toSatisfy(
      (e: unknown) => SkillsError.isInstance(e) && e.code === "SKILL_NOT_FOUND",
    );
  });

  it("rejects setEnabled without a config path", async () => {
    const catalog = new SkillCatalog({ root });
    open.push(catalog);
    await expect(catalog.setEnabled("pdf", false)).rejects.toSatisfy(
      (e: unknown) => SkillsError.isInstance(e) && e.code === "CONFIG_INVALID",
    );
    expect((await catalog.list()).every((s) => s.enabled)).toBe(true);
  });

  it("defaults the container base to /mnt/skills", () => {
    const catalog = new SkillCatalog({ root });
    expect(catalog.containerBase).toBe("/mnt/skills");
    expect(new SkillCatalog({ root, containerBase: "/skills" }).containerBase).toBe("/skills");
  });

  it("invalidates itself when a watched skill file changes, even with a symlink loop in the tree", async () => {
    await fs.symlink(root, path.join(root, "public", "team", "loop"));
    const { catalog, stats } = counted({ watch: { debounceMs: 20 } });
    await catalog.list();
    await writeSkill(root, "custom/watched", skillMarkdown("watched", "appeared"));
    await vi.waitFor(async () => expect((await catalog.list()).map((s) => s.name)).toContain("watched"), {
      timeout: 5000,
      interval: 50,
    });
    expect(stats.scans).toBeGreaterThanOrEqual(2);
  });

  it("invalidates itself when the watched config file is replaced", async () => {
    const { catalog } = counted({ watch: { debounceMs: 20 } });
    await catalog.list();
    const temp = path.join(tmp, ".extensions_config.json.x.tmp");
    await fs.writeFile(temp, JSON.stringify({ skills: { "my-notes": { enabled: false } } }));
    await fs.rename(temp, configPath);
    await vi.waitFor(async () => expect((await catalog.get("my-notes"))?.enabled).toBe(false), {
      timeout: 5000,
      interval: 50,
    });
  });

  it("stops reacting to changes after close()", async () => {
    const { catalog, stats } = counted({ watch: { debounceMs: 10 } });
    await catalog.list();
    catalog.close();
    await writeSkill(root, "custom/after-close", skillMarkdown("after-close", "d"));
    await new Promise((r) => setTimeout(r, 100));
    expect((await catalog.list()).map((s) => s.name)).not.toContain("after-close");
    expect(stats.scans).toBe(1);
  });

  it("starts without a watcher when the root does not exist", async () => {
    const logger = recordingLogger();
    const catalog = new SkillCatalog({ root: path.join(tmp, "missing"), watch: true, logger });
    open.push(catalog);
    expect(await catalog.list()).toEqual([]);
    expect(logger.calls.some((c) => c.msg === "Cannot watch skills directory")).toBe(true);
  });
});
