import { existsSync, promises as fsPromises } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CustomSkillStore } from "./custom-skill-store.js";
import {
  makeTempRoots,
  recordingLogger,
  rejectionOf,
  ScriptedModeration,
  skillMd,
  type TempRoots,
} from "../../test/support/custom/fixtures.js";

let roots: TempRoots;
let store: CustomSkillStore;
const agent = { author: "agent", threadId: "t-1" } as const;
const human = { author: "human" } as const;
const v = (n: number) => skillMd("my-skill", `Version ${n}.`);

beforeEach(async () => {
  roots = await makeTempRoots("rollback-");
  store = new CustomSkillStore({ customRoot: roots.customRoot, publicRoot: roots.publicRoot });
});
afterEach(async () => {
  vi.restoreAllMocks();
  await roots.cleanup();
});

async function threeVersions(): Promise<void> {
  await store.create("my-skill", v(0), agent);
  await store.update("my-skill", v(1), agent);
  await store.update("my-skill", v(2), agent);
}

describe("CustomSkillStore.rollback", () => {
  it("restores the latest record's previous content by default and records the source ts", async () => {
    await threeVersions();
    const source = (await store.history("my-skill")).at(-1);
    const record = await store.rollback("my-skill");
    expect(await store.read("my-skill")).toBe(v(1));
    expect(record).toMatchObject({
      action: "rollback",
      author: "human",
      threadId: null,
      prevContent: v(2),
      newContent: v(1),
      rollbackFromTs: source?.ts,
    });
  });

  it("accepts Python-style negative indexes", async () => {
    await threeVersions();
    await store.rollback("my-skill", -2, human);
    expect(await store.read("my-skill")).toBe(v(0));
  });

  it("accepts positive indexes from the oldest record", async () => {
    await threeVersions();
    await store.rollback("my-skill", 2, human);
    expect(await store.read("my-skill")).toBe(v(1));
  });

  it.each([3, -4, 1.5])("rejects index %j as out of range", async (index) => {
    await threeVersions();
    const err = await rejectionOf(store.rollback("my-skill", index, human));
    expect([err.code, err.message]).toEqual(["HISTORY_NOT_FOUND", "history_index is out of range"]);
  });

  it("refuses a record without previous content (the create)", async () => {
    await threeVersions();
    const err = await rejectionOf(store.rollback("my-skill", 0, human));
    expect(err.message).toBe("Selected history entry has no previous content to roll back to");
  });

  it("refuses a support-file record (its previous content is not a SKILL.md)", async () => {
    await store.create("my-skill", v(0), agent);
    await store.writeFile("my-skill", "references/a.md", "one", agent);
    await store.writeFile("my-skill", "references/a.md", skillMd("my-skill", "Sneaky."), agent);
    expect((await rejectionOf(store.rollback("my-skill", -1, human))).code).toBe("HISTORY_NOT_FOUND");
  });

  it("reports a skill with an empty history file", async () => {
    await mkdir(path.join(roots.customRoot, "my-skill"), { recursive: true });
    await writeFile(path.join(roots.customRoot, "my-skill", "SKILL.md"), v(0));
    const err = await rejectionOf(store.rollback("my-skill", -1, human));
    expect(err.message).toBe("Custom skill 'my-skill' has no history");
  });

  it("throws SKILL_NOT_FOUND when neither the skill nor its history exists", async () => {
    expect((await rejectionOf(store.rollback("ghost", -1, human))).message).toBe("Custom skill 'ghost' not found.");
  });

  it("restores a deleted skill from the delete record, recreating its directory", async () => {
    await store.create("my-skill", v(0), agent);
    await store.delete("my-skill", agent);
    expect(existsSync(path.join(roots.customRoot, "my-skill"))).toBe(false);
    const record = await store.rollback("my-skill", -1, human);
    expect(await store.read("my-skill")).toBe(v(0));
    expect(record.prevContent).toBeNull();
    expect((await store.history("my-skill")).map((r) => r.action)).toEqual(["create", "delete", "rollback"]);
  });

  it("re-validates the restored content against the skill name", async () => {
    await store.create("my-skill", v(0), agent);
    const file = path.join(roots.customRoot, ".history", "my-skill.jsonl");
    const forged = {
      ts: "2026-01-01T00:00:00+00:00",
      action: "edit",
      author: "agent",
      thread_id: null,
      file_path: "SKILL.md",
      prev_content: skillMd("other"),
      new_content: v(0),
      scanner: { decision: "allow", reason: "ok" },
    };
    await fsPromises.appendFile(file, `${JSON.stringify(forged)}\n`);
    const err = await rejectionOf(store.rollback("my-skill", -1, human));
    expect(err.message).toBe("Frontmatter name 'other' must match requested skill name 'my-skill'.");
  });

  it("records a blocked rollback with the block verdict and leaves SKILL.md alone", async () => {
    let blocking = false;
    const moderation = new ScriptedModeration(() =>
      blocking ? { decision: "block", reason: "Injected." } : { decision: "allow", reason: "ok" },
    );
    store = new CustomSkillStore({ customRoot: roots.customRoot, moderation });
    await threeVersions();
    blocking = true;
    const err = await rejectionOf(store.rollback("my-skill", -1, human));
    expect([err.code, err.message]).toEqual(["SECURITY_BLOCKED", "Rollback blocked by security scanner: Injected."]);
    expect(await store.read("my-skill")).toBe(v(2));
    const last = (await store.history("my-skill")).at(-1);
    expect(last).toMatchObject({
      action: "rollback",
      prevContent: v(2),
      newContent: v(1),
      scanner: { decision: "block", reason: "Injected." },
    });
  });
});

describe("CustomSkillStore.delete history failures", () => {
  it("logs a read-only history failure and deletes anyway", async () => {
    const logger = recordingLogger();
    store = new CustomSkillStore({ customRoot: roots.customRoot, logger });
    await store.create("my-skill", v(0), agent);
    vi.spyOn(fsPromises, "appendFile").mockRejectedValueOnce(Object.assign(new Error("read-only"), { code: "EROFS" }));
    await store.delete("my-skill", agent);
    expect(existsSync(path.join(roots.customRoot, "my-skill"))).toBe(false);
    expect(logger.entries.some((e) => e.level === "warn" && e.obj["code"] === "EROFS")).toBe(true);
  });

  it("aborts the delete on any other history failure", async () => {
    await store.create("my-skill", v(0), agent);
    vi.spyOn(fsPromises, "appendFile").mockRejectedValueOnce(Object.assign(new Error("disk full"), { code: "ENOSPC" }));
    await expect(store.delete("my-skill", agent)).rejects.toThrow("disk full");
    expect(await store.read("my-skill")).toBe(v(0));
  });

  it("undoes an edit whose history record cannot be written", async () => {
    await store.create("my-skill", v(0), agent);
    vi.spyOn(fsPromises, "appendFile").mockRejectedValueOnce(Object.assign(new Error("disk full"), { code: "ENOSPC" }));
    await expect(store.update("my-skill", v(1), agent)).rejects.toThrow("disk full");
    expect(await store.read("my-skill")).toBe(v(0));
  });

  it("undoes a create whose history record cannot be written", async () => {
    vi.spyOn(fsPromises, "appendFile").mockRejectedValueOnce(Object.assign(new Error("disk full"), { code: "ENOSPC" }));
    await expect(store.create("my-skill", v(0), agent)).rejects.toThrow("disk full");
    expect(existsSync(path.join(roots.customRoot, "my-skill"))).toBe(false);
  });
});
