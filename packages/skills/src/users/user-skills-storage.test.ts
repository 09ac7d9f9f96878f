import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempDir, skillMarkdown, writeSkill } from "../../test/support/catalog/fixtures.js";
import { renderSkillSection } from "../prompt/render.js";
import { UserSkillsStorage } from "./user-skills-storage.js";
import { userFolderName } from "./user-folder-name.js";

let tmp: string;
let root: string;
let dataDir: string;
let configPath: string;
beforeEach(async () => {
  tmp = await makeTempDir("user-skills-");
  root = path.join(tmp, "skills");
  dataDir = path.join(tmp, "data");
  configPath = path.join(tmp, "extensions_config.json");
  await writeSkill(root, "public/deep-research", skillMarkdown("deep-research", "Research deeply"));
  await writeSkill(root, "custom/team-notes", skillMarkdown("team-notes", "The team's shared notes"));
});
afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

const storage = (extra: Partial<ConstructorParameters<typeof UserSkillsStorage>[0]> = {}) =>
  new UserSkillsStorage({ root, dataDir, extensionsConfigPath: configPath, staticScanner: null, ...extra });
const human = { author: "human" } as const;
const names = async (s: UserSkillsStorage, user: string) =>
  (await s.forUser(user).catalog.list()).map((k) => `${k.category}:${k.name}:${k.enabled}`);

describe("UserSkillsStorage", () => {
  it("keeps each user's custom skills in their own folder, out of every other user's catalog and store", async () => {
    const s = storage();
    await s.forUser("alice").store.create("alice-notes", skillMarkdown("alice-notes", "Alice's"), human);
    expect(await fs.readFile(path.join(dataDir, "users/alice/skills/custom/alice-notes/SKILL.md"), "utf8")).toContain(
      "Alice's",
    );
    expect(await names(s, "alice")).toEqual(["custom:alice-notes:true", "public:deep-research:true"]);
    // Bob has no custom skill: he sees the shared folder as read-only legacy, and nothing of alice's.
    expect(await names(s, "bob")).toEqual(["public:deep-research:true", "legacy:team-notes:true"]);
    const bob = s.forUser("bob");
    await expect(bob.store.read("alice-notes")).rejects.toMatchObject({ code: "SKILL_NOT_FOUND" });
    await expect(bob.store.update("alice-notes", skillMarkdown("alice-notes", "x"), human)).rejects.toMatchObject({
      code: "SKILL_NOT_FOUND",
    });
    await expect(bob.store.delete("alice-notes", human)).rejects.toMatchObject({ code: "SKILL_NOT_FOUND" });
    await expect(bob.store.history("alice-notes")).rejects.toMatchObject({ code: "SKILL_NOT_FOUND" });
    await expect(bob.catalog.setEnabled("alice-notes", false)).rejects.toMatchObject({ code: "SKILL_NOT_FOUND" });
    // History is per user too.
    expect(await fs.readdir(path.join(dataDir, "users/alice/skills/custom/.history"))).toEqual(["alice-notes.jsonl"]);
  });

  it("shows legacy until the user creates a custom skill, and renders it read-only", async () => {
    const s = storage();
    const carol = s.forUser("carol");
    const legacy = await carol.catalog.list();
    expect(renderSkillSection(legacy, { mode: "full" }).text).toContain("[legacy, read-only]");
    expect(legacy.find((k) => k.name === "team-notes")?.skillFile).toBe(path.join(root, "custom/team-notes/SKILL.md"));
    await expect(carol.store.update("team-notes", skillMarkdown("team-notes", "x"), human)).rejects.toMatchObject({
      code: "SKILL_NOT_FOUND",
    });
    await carol.store.create("mine", skillMarkdown("mine", "Mine"), human);
    expect(await names(s, "carol")).toEqual(["public:deep-research:true", "custom:mine:true"]);
    expect(carol.mounts.map((m) => m.category)).toEqual(["public", "custom", "legacy"]);
  });

  it("lets the legacy owner own the shared folder as custom (a single-user deployment)", async () => {
    const s = storage({ legacyOwner: "default" });
    expect(await names(s, "default")).toEqual(["public:deep-research:true", "custom:team-notes:true"]);
    const me = s.forUser("default");
    expect(me.store.customRoot).toBe(path.join(root, "custom"));
    expect(me.mounts).toEqual([
      { category: "public", hostPath: path.join(root, "public") },
      { category: "custom", hostPath: path.join(root, "custom") },
    ]);
    expect(await names(s, "dave")).toEqual(["public:deep-research:true", "legacy:team-notes:true"]);
  });

  it("keeps custom and legacy toggles per user and public toggles global, with the global off winning", async () => {
    const s = storage();
    await s.forUser("alice").store.create("a-skill", skillMarkdown("a-skill", "A"), human);
    // Bob lists first, so his cached view must be dropped by alice's public toggle.
    expect(await names(s, "bob")).toContain("public:deep-research:true");
    await s.forUser("alice").catalog.setEnabled("a-skill", false);
    await s.forUser("bob").catalog.setEnabled("team-notes", false);
    expect(JSON.parse(await fs.readFile(path.join(dataDir, "users/alice/skills/_skill_states.json"), "utf8"))).toEqual({
      "a-skill": { enabled: false },
    });
    expect(await names(s, "carol")).toContain("legacy:team-notes:true");
    expect(await names(s, "bob")).toContain("legacy:team-notes:false");
    await expect(fs.access(configPath)).rejects.toThrow();

    await s.forUser("alice").catalog.setEnabled("deep-research", false);
    expect(await names(s, "bob")).toContain("public:deep-research:false");
    expect(await names(s, "carol")).toContain("public:deep-research:false");

    // An admin's global "off" of a non-public name cannot be undone by a user's own entry.
    await fs.writeFile(configPath, JSON.stringify({ skills: { "team-notes": { enabled: false } } }));
    s.invalidateAll();
    const back = await s.forUser("carol").catalog.setEnabled("team-notes", true);
    expect(back.enabled).toBe(false);
    expect(await names(s, "carol")).toContain("legacy:team-notes:false");
  });

  it("treats a corrupt or wrongly shaped states file as empty, and replaces it on the next toggle", async () => {
    const s = storage();
    await s.forUser("alice").store.create("a-skill", skillMarkdown("a-skill", "A"), human);
    const file = path.join(dataDir, "users/alice/skills/_skill_states.json");
    for (const bad of ["{not json", "[1,2]", '"x"', '{"a-skill": {"enabled": "no"}}']) {
      await fs.writeFile(file, bad);
      s.invalidateUser("alice");
      expect(await names(s, "alice")).toContain("custom:a-skill:true");
    }
    await s.forUser("alice").catalog.setEnabled("a-skill", false);
    expect(JSON.parse(await fs.readFile(file, "utf8"))).toEqual({ "a-skill": { enabled: false } });
    expect((await fs.readdir(path.dirname(file))).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("serialises concurrent toggles of one user without losing any", async () => {
    const s = storage();
    const alice = s.forUser("alice");
    const skills = ["s1", "s2", "s3", "s4", "s5", "s6"];
    for (const n of skills) await alice.store.create(n, skillMarkdown(n, n), human);
    await Promise.all(skills.map((n) => alice.catalog.setEnabled(n, false)));
    const states = JSON.parse(await fs.readFile(path.join(dataDir, "users/alice/skills/_skill_states.json"), "utf8"));
    expect(Object.keys(states).sort()).toEqual(skills);
  });

  it("maps hostile user ids to folders inside users/, distinct for distinct ids", async () => {
    const s = storage();
    const hostile = ["..", "../bob", "a/b", "a\\b", "/etc", "feishu:ou_1", ".", "bob\u0000", "x".repeat(400)];
    const folders = new Set<string>();
    for (const id of hostile) {
      const dir = s.userSkillsDir(id);
      expect(path.dirname(path.dirname(dir))).toBe(path.join(dataDir, "users"));
      folders.add(path.basename(path.dirname(dir)));
      await s.forUser(id).store.create("h-skill", skillMarkdown("h-skill", "H"), human);
    }
    expect(folders.size).toBe(hostile.length);
    expect(folders.has("bob")).toBe(false);
    expect(await names(s, "bob")).not.toContain("custom:h-skill:true");
    // Nothing was written outside users/.
    expect((await fs.readdir(dataDir)).sort()).toEqual(["users"]);
    expect(userFolderName("alice_1-x")).toBe("alice_1-x");
    expect(userFolderName("feishu:ou_1")).toMatch(/^feishu-ou_1-[0-9a-f]{16}$/);
    expect(() => s.forUser("")).toThrow("user_id must be a non-empty string.");
    expect(() => s.forUser("  ")).toThrow("user_id must be a non-empty string.");
  });

  it("names a broken skill of a user's folder by category, never by its host path", async () => {
    const s = storage();
    await writeSkill(path.join(dataDir, "users/alice/skills/custom"), "broken", "---\nname: [\n---\n");
    const diagnostics = await s.forUser("alice").catalog.diagnostics();
    expect(diagnostics.map((d) => d.file)).toEqual(["custom/broken/SKILL.md"]);
    expect(JSON.stringify(diagnostics)).not.toContain(tmp);
    // A folder holding only a broken SKILL.md still counts as the user's own: no legacy (DeerFlow).
    expect(await names(s, "alice")).toEqual(["public:deep-research:true"]);
  });

  it("keeps 64 users by default, rebuilding an evicted one from disk", async () => {
    const s = storage({ maxCachedUsers: 2 });
    const first = s.forUser("u1");
    await first.store.create("u1-skill", skillMarkdown("u1-skill", "U1"), human);
    s.forUser("u2");
    s.forUser("u3");
    const again = s.forUser("u1");
    expect(again).not.toBe(first);
    expect(await names(s, "u1")).toContain("custom:u1-skill:true");
    expect(s.forUser("u1")).toBe(again);
    s.clear();
    expect(s.forUser("u1")).not.toBe(again);
  });
});
