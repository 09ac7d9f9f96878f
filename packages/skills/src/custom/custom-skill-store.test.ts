import { existsSync } from "node:fs";
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CustomSkillStore } from "./custom-skill-store.js";
import { makeTempRoots, rejectionOf, skillMd, type TempRoots } from "../../test/support/custom/fixtures.js";

let roots: TempRoots;
let store: CustomSkillStore;
let changes: string[];
const agent = { author: "agent", threadId: "t-1" } as const;
const human = { author: "human" } as const;

beforeEach(async () => {
  roots = await makeTempRoots("store-");
  changes = [];
  store = new CustomSkillStore({
    customRoot: roots.customRoot,
    publicRoot: roots.publicRoot,
    onChange: (n) => void changes.push(n),
  });
  await mkdir(path.join(roots.publicRoot, "builtin"), { recursive: true });
  await writeFile(path.join(roots.publicRoot, "builtin", "SKILL.md"), skillMd("builtin"));
});
afterEach(async () => {
  await roots.cleanup();
});

const skillFile = (name: string) => path.join(roots.customRoot, name, "SKILL.md");

describe("CustomSkillStore.create", () => {
  it("writes SKILL.md, records a create and notifies onChange", async () => {
    const record = await store.create("my-skill", skillMd("my-skill"), agent);
    expect(await readFile(skillFile("my-skill"), "utf8")).toBe(skillMd("my-skill"));
    expect(record).toMatchObject({
      action: "create",
      author: "agent",
      threadId: "t-1",
      filePath: "SKILL.md",
      prevContent: null,
      newContent: skillMd("my-skill"),
    });
    expect(changes).toEqual(["my-skill"]);
  });

  it("refuses an existing custom skill with DeerFlow's message", async () => {
    await store.create("my-skill", skillMd("my-skill"), agent);
    const err = await rejectionOf(store.create("my-skill", skillMd("my-skill"), agent));
    expect([err.code, err.message]).toEqual(["SKILL_ALREADY_EXISTS", "Custom skill 'my-skill' already exists."]);
  });

  it("allows a name that exists only as a built-in skill (it shadows it)", async () => {
    await store.create("builtin", skillMd("builtin", "Mine."), agent);
    expect(await store.read("builtin")).toContain("Mine.");
  });

  it("rejects a frontmatter name that differs from the requested name", async () => {
    const err = await rejectionOf(store.create("my-skill", skillMd("other"), agent));
    expect([err.code, err.message]).toEqual([
      "SKILL_INVALID",
      "Frontmatter name 'other' must match requested skill name 'my-skill'.",
    ]);
    expect(existsSync(path.join(roots.customRoot, "my-skill"))).toBe(false);
  });

  it("reports the validator's message before a name mismatch, as DeerFlow does", async () => {
    const err = await rejectionOf(store.create("my-skill", skillMd("other", "Has <angle> brackets."), agent));
    expect(err.message).toBe("Description cannot contain angle brackets (< or >)");
  });

  it("rejects content without frontmatter", async () => {
    expect((await rejectionOf(store.create("my-skill", "# no frontmatter", agent))).message).toBe(
      "No YAML frontmatter found",
    );
  });

  it("refuses a traversal name without creating anything", async () => {
    const err = await rejectionOf(store.create("../../escaped", skillMd("escaped"), agent));
    expect(err.code).toBe("INVALID_NAME");
    expect(existsSync(path.join(roots.base, "escaped"))).toBe(false);
  });

  it("rejects a SKILL.md above the size limit", async () => {
    const huge = skillMd("big", "d", "x".repeat(10 * 1024 * 1024 + 1));
    expect((await rejectionOf(store.create("big", huge, agent))).code).toBe("SKILL_TOO_LARGE");
  });
});

describe("CustomSkillStore.read", () => {
  it("throws SKILL_NOT_FOUND for a missing custom skill", async () => {
    const err = await rejectionOf(store.read("ghost"));
    expect([err.code, err.message]).toEqual(["SKILL_NOT_FOUND", "Custom skill 'ghost' not found."]);
  });
});

describe("CustomSkillStore.update", () => {
  it("replaces SKILL.md and records an agent edit with the previous content", async () => {
    await store.create("my-skill", skillMd("my-skill"), agent);
    const record = await store.update("my-skill", skillMd("my-skill", "Better."), agent);
    expect(record).toMatchObject({
      action: "edit",
      prevContent: skillMd("my-skill"),
      newContent: skillMd("my-skill", "Better."),
    });
    expect(await store.read("my-skill")).toContain("Better.");
  });

  it("records human_edit for a human author", async () => {
    await store.create("my-skill", skillMd("my-skill"), agent);
    expect((await store.update("my-skill", skillMd("my-skill", "B."), human)).action).toBe("human_edit");
  });

  it("refuses a built-in skill with DeerFlow's read-only message", async () => {
    const err = await rejectionOf(store.update("builtin", skillMd("builtin"), human));
    expect(err.code).toBe("SKILL_READ_ONLY");
    expect(err.message).toBe(
      "'builtin' is a built-in skill. Use the skill_manage tool to create your own version — it will shadow the built-in one.",
    );
  });

  it("refuses a missing skill with DeerFlow's not-found message", async () => {
    const err = await rejectionOf(store.update("ghost", skillMd("ghost"), agent));
    expect([err.code, err.message]).toEqual(["SKILL_NOT_FOUND", "Custom skill 'ghost' not found."]);
  });

  it("keeps the old content when the new content is invalid", async () => {
    await store.create("my-skill", skillMd("my-skill"), agent);
    await rejectionOf(store.update("my-skill", "---\nname: my-skill\n---\n", agent));
    expect(await store.read("my-skill")).toBe(skillMd("my-skill"));
    expect(await store.history("my-skill")).toHaveLength(1);
  });
});

describe("CustomSkillStore.patch", () => {
  const text = skillMd("my-skill", "d", "step\nstep\nstep\n");

  it("replaces the first occurrence by default and records a patch", async () => {
    await store.create("my-skill", text, agent);
    const outcome = await store.patch("my-skill", "step", "STEP", undefined, agent);
    expect([outcome.replacements, outcome.matches]).toEqual([1, 3]);
    expect(await store.read("my-skill")).toBe(skillMd("my-skill", "d", "STEP\nstep\nstep\n"));
    expect(outcome.record).toMatchObject({ action: "patch", prevContent: text });
  });

  it("replaces exactly expectedCount occurrences", async () => {
    await store.create("my-skill", text, agent);
    await store.patch("my-skill", "step", "STEP", 3, agent);
    expect(await store.read("my-skill")).toBe(skillMd("my-skill", "d", "STEP\nSTEP\nSTEP\n"));
  });

  it.each([
    ["absent", undefined, "Patch target not found in SKILL.md."],
    ["step", 2, "Expected 2 replacements but found 3."],
    ["", undefined, "find and replace are required for patch."],
  ])("fails for find=%j expected=%j without writing", async (find, expected, message) => {
    await store.create("my-skill", text, agent);
    expect((await rejectionOf(store.patch("my-skill", find, "x", expected, agent))).message).toBe(message);
    expect(await store.read("my-skill")).toBe(text);
  });

  it("re-validates the patched content", async () => {
    await store.create("my-skill", text, agent);
    const err = await rejectionOf(store.patch("my-skill", "name: my-skill", "name: renamed", undefined, agent));
    expect(err.message).toBe("Frontmatter name 'renamed' must match requested skill name 'my-skill'.");
  });
});

describe("CustomSkillStore.writeFile and removeFile", () => {
  beforeEach(async () => {
    await store.create("my-skill", skillMd("my-skill"), agent);
  });

  it("writes a support file and records write_file with the earlier content", async () => {
    const first = await store.writeFile("my-skill", "references/api.md", "v1", agent);
    const second = await store.writeFile("my-skill", "references/api.md", "v2", agent);
    expect(await readFile(path.join(roots.customRoot, "my-skill", "references", "api.md"), "utf8")).toBe("v2");
    expect(first).toMatchObject({
      action: "write_file",
      filePath: "references/api.md",
      prevContent: null,
      newContent: "v1",
    });
    expect(second.prevContent).toBe("v1");
  });

  it("refuses a path that is a directory", async () => {
    await mkdir(path.join(roots.customRoot, "my-skill", "references", "dir"), { recursive: true });
    const err = await rejectionOf(store.writeFile("my-skill", "references/dir", "x", agent));
    expect(err.message).toBe("Supporting file path 'references/dir' is a directory, not a file.");
  });

  it("removes a support file and records its previous text", async () => {
    await store.writeFile("my-skill", "templates/t.md", "tmpl", agent);
    const record = await store.removeFile("my-skill", "templates/t.md", agent);
    expect(existsSync(path.join(roots.customRoot, "my-skill", "templates", "t.md"))).toBe(false);
    expect(record).toMatchObject({
      action: "remove_file",
      prevContent: "tmpl",
      newContent: null,
      scanner: { decision: "allow", reason: "Deletion requested." },
    });
  });

  it("records null as the previous content of a removed binary file", async () => {
    await mkdir(path.join(roots.customRoot, "my-skill", "assets"));
    await writeFile(
      path.join(roots.customRoot, "my-skill", "assets", "logo.png"),
      Buffer.from([0x89, 0x50, 0xff, 0xfe]),
    );
    expect((await store.removeFile("my-skill", "assets/logo.png", agent)).prevContent).toBeNull();
  });

  it("reports a missing support file with DeerFlow's message", async () => {
    const err = await rejectionOf(store.removeFile("my-skill", "references/nope.md", agent));
    expect([err.code, err.message]).toEqual([
      "FILE_NOT_FOUND",
      "Supporting file 'references/nope.md' not found for skill 'my-skill'.",
    ]);
  });

  it("refuses support files of a built-in skill", async () => {
    expect((await rejectionOf(store.writeFile("builtin", "references/a.md", "x", agent))).code).toBe("SKILL_READ_ONLY");
  });

  it("makes written files sandbox-readable", async () => {
    await store.writeFile("my-skill", "scripts/run.sh", "echo hi", agent);
    expect((await stat(path.join(roots.customRoot, "my-skill", "scripts", "run.sh"))).mode & 0o777).toBe(0o644);
  });
});

describe("CustomSkillStore.delete", () => {
  it("removes the directory and keeps SKILL.md as prevContent of the delete record", async () => {
    await store.create("my-skill", skillMd("my-skill"), agent);
    await store.writeFile("my-skill", "references/a.md", "a", agent);
    await store.delete("my-skill", agent);
    expect(existsSync(path.join(roots.customRoot, "my-skill"))).toBe(false);
    const last = (await store.history("my-skill")).at(-1);
    expect(last).toMatchObject({
      action: "delete",
      prevContent: skillMd("my-skill"),
      newContent: null,
      scanner: { decision: "allow", reason: "Deletion requested." },
    });
  });

  it("records human_delete for a human author", async () => {
    await store.create("my-skill", skillMd("my-skill"), agent);
    await store.delete("my-skill", human);
    expect((await store.history("my-skill")).at(-1)?.action).toBe("human_delete");
  });

  it("refuses a built-in skill and a missing skill", async () => {
    expect((await rejectionOf(store.delete("builtin", agent))).code).toBe("SKILL_READ_ONLY");
    expect((await rejectionOf(store.delete("ghost", agent))).message).toBe("Custom skill 'ghost' not found.");
  });
});

describe("CustomSkillStore.history", () => {
  it("throws SKILL_NOT_FOUND when neither the skill nor a history exists", async () => {
    expect((await rejectionOf(store.history("ghost"))).code).toBe("SKILL_NOT_FOUND");
  });
});

describe("CustomSkillStore concurrency", () => {
  it("serialises concurrent patches of one skill: no lost update, history in order", async () => {
    const body = Array.from({ length: 12 }, (_, i) => `item-${i}`).join("\n");
    await store.create("my-skill", skillMd("my-skill", "d", `${body}\n`), agent);
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => store.patch("my-skill", `item-${i}\n`, `done-${i}\n`, 1, agent)),
    );
    const final = await store.read("my-skill");
    for (let i = 0; i < 12; i++) expect(final).toContain(`done-${i}`);
    const history = await store.history("my-skill");
    expect(history.map((r) => r.action)).toEqual(["create", ...Array(12).fill("patch")]);
    for (let i = 1; i < history.length; i++) expect(history[i]?.prevContent).toBe(history[i - 1]?.newContent);
  });

  it("serialises concurrent updates so every record's prevContent is the previous record's newContent", async () => {
    await store.create("my-skill", skillMd("my-skill"), agent);
    await Promise.all(
      Array.from({ length: 8 }, (_, i) => store.update("my-skill", skillMd("my-skill", `Version ${i}.`), agent)),
    );
    const history = await store.history("my-skill");
    expect(history).toHaveLength(9);
    for (let i = 1; i < history.length; i++) expect(history[i]?.prevContent).toBe(history[i - 1]?.newContent);
    expect(await store.read("my-skill")).toBe(history.at(-1)?.newContent);
  });

  it("lets only one of two concurrent creates of the same name succeed", async () => {
    const results = await Promise.allSettled([
      store.create("twin", skillMd("twin", "A."), agent),
      store.create("twin", skillMd("twin", "B."), agent),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(await store.history("twin")).toHaveLength(1);
  });
  it("serialises two stores on one folder too (a per-user store rebuilt while the old one works)", async () => {
    const other = new CustomSkillStore({ customRoot: store.customRoot, staticScanner: null });
    await store.create("shared", skillMd("shared", "d", "a\n"), agent);
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 === 0 ? store : other).update("shared", skillMd("shared", `Version ${i}.`), agent),
      ),
    );
    const history = await store.history("shared");
    expect(history).toHaveLength(11);
    for (let i = 1; i < history.length; i++) expect(history[i]?.prevContent).toBe(history[i - 1]?.newContent);
  });
});
