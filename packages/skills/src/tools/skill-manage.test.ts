import { existsSync } from "node:fs";
import { mkdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { ToolMessage } from "@langchain/core/messages";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CustomSkillStore } from "../custom/custom-skill-store.js";
import {
  makeTempRoots,
  MarkerScanner,
  ScriptedModeration,
  skillMd,
  type TempRoots,
} from "../../test/support/custom/fixtures.js";
import { createSkillManageTool, MAX_TOOL_ERROR_CHARS } from "./skill-manage.js";
import type { SkillManageInput } from "./skill-manage-schema.js";

let roots: TempRoots;
let store: CustomSkillStore;
let changes: string[];

beforeEach(async () => {
  roots = await makeTempRoots("skill-manage-");
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

async function call(input: SkillManageInput, threadId = "thread-9", target: CustomSkillStore = store): Promise<string> {
  const result: unknown = await createSkillManageTool(target).invoke(input, { configurable: { thread_id: threadId } });
  if (typeof result !== "string") throw new Error("expected string output");
  return result;
}

const create = (name = "my-skill", content: string | null = skillMd(name)) => call({ action: "create", name, content });

describe("createSkillManageTool", () => {
  it("exposes DeerFlow's name and snake_case parameters", () => {
    const t = createSkillManageTool(store);
    expect(t.name).toBe("skill_manage");
    expect(Object.keys((t.schema as { properties: object }).properties)).toEqual([
      "action",
      "name",
      "content",
      "path",
      "find",
      "replace",
      "expected_count",
    ]);
  });

  it("picks each call's store from its config (per-user skills), and reports a resolver failure as text", async () => {
    const other = new CustomSkillStore({ customRoot: path.join(roots.customRoot, "..", "bob-custom") });
    const byUser = (config: { configurable?: Record<string, unknown> } | undefined) => {
      const user = config?.configurable?.["user_id"];
      if (user === "alice") return store;
      if (user === "bob") return other;
      throw new Error("no user");
    };
    const t = createSkillManageTool(byUser);
    const input = { action: "create", name: "mine", content: skillMd("mine") };
    expect(await t.invoke(input, { configurable: { user_id: "alice" } })).toBe("Created custom skill 'mine'.");
    expect(await store.exists("mine")).toBe(true);
    expect(await other.exists("mine")).toBe(false);
    expect(await t.invoke({ action: "delete", name: "mine" }, { configurable: { user_id: "bob" } })).toBe(
      "Error: Custom skill 'mine' not found.",
    );
    expect(await store.exists("mine")).toBe(true);
    expect(await t.invoke(input, { configurable: {} })).toBe("Error: skill_manage failed unexpectedly.");
  });

  it("creates a skill, records the thread id and notifies onChange", async () => {
    expect(await create()).toBe("Created custom skill 'my-skill'.");
    expect(await readFile(path.join(roots.customRoot, "my-skill", "SKILL.md"), "utf8")).toBe(skillMd("my-skill"));
    expect((await store.history("my-skill"))[0]).toMatchObject({
      action: "create",
      author: "agent",
      threadId: "thread-9",
    });
    expect(changes).toEqual(["my-skill"]);
  });

  it("prefers getThreadId when given", async () => {
    const t = createSkillManageTool(store, { getThreadId: () => "from-option" });
    await t.invoke(
      { action: "create", name: "my-skill", content: skillMd("my-skill") },
      { configurable: { thread_id: "ignored" } },
    );
    expect((await store.history("my-skill"))[0]?.threadId).toBe("from-option");
  });

  it("records a null thread id when the run has none", async () => {
    await createSkillManageTool(store).invoke({ action: "create", name: "my-skill", content: skillMd("my-skill") });
    expect((await store.history("my-skill"))[0]?.threadId).toBeNull();
  });

  it.each([
    [{ action: "create", name: "my-skill", content: null }, "Error: content is required for create."],
    [{ action: "create", name: "my-skill" }, "Error: content is required for create."],
    [
      { action: "create", name: "../../escaped", content: "x" },
      "Error: Skill name must be hyphen-case using lowercase letters, digits, and hyphens only.",
    ],
    [{ action: "create", name: "a".repeat(65), content: "x" }, "Error: Skill name must be 64 characters or fewer."],
    [
      { action: "create", name: "my-skill", content: skillMd("other") },
      "Error: Frontmatter name 'other' must match requested skill name 'my-skill'.",
    ],
    [{ action: "frobnicate", name: "my-skill" }, "Error: Unsupported action 'frobnicate'."],
    [
      { action: "frobnicate", name: "builtin" },
      "Error: 'builtin' is a read-only skill (built-in or legacy shared). To customise it, create your own version with the same name.",
    ],
    [{ action: "edit", name: "ghost", content: "x" }, "Error: Custom skill 'ghost' not found."],
    [
      { action: "edit", name: "builtin", content: "x" },
      "Error: 'builtin' is a built-in skill. Use the skill_manage tool to create your own version — it will shadow the built-in one.",
    ],
    [
      { action: "delete", name: "builtin" },
      "Error: 'builtin' is a built-in skill. Use the skill_manage tool to create your own version — it will shadow the built-in one.",
    ],
    [{ action: "delete", name: "ghost" }, "Error: Custom skill 'ghost' not found."],
  ] satisfies Array<[SkillManageInput, string]>)("answers %j with %j", async (input, expected) => {
    expect(await call(input)).toBe(expected);
  });

  it("refuses to create an existing custom skill (before checking content)", async () => {
    await create();
    expect(await call({ action: "create", name: "my-skill" })).toBe("Error: Custom skill 'my-skill' already exists.");
  });

  it("creates a custom skill that shadows a built-in one", async () => {
    expect(await create("builtin")).toBe("Created custom skill 'builtin'.");
  });

  it("edits a skill", async () => {
    await create();
    expect(await call({ action: "edit", name: "my-skill", content: skillMd("my-skill", "New.") })).toBe(
      "Updated custom skill 'my-skill'.",
    );
    expect(await call({ action: "edit", name: "my-skill" })).toBe("Error: content is required for edit.");
    expect((await store.history("my-skill")).map((r) => r.action)).toEqual(["create", "edit"]);
  });

  describe("patch", () => {
    beforeEach(async () => {
      await create("my-skill", skillMd("my-skill", "d", "a\na\na\n"));
    });

    it("reports replacements and matches", async () => {
      expect(await call({ action: "patch", name: "my-skill", find: "a\n", replace: "b\n" })).toBe(
        "Patched custom skill 'my-skill' (1 replacement(s) applied, 3 match(es) found).",
      );
      expect(await call({ action: "patch", name: "my-skill", find: "a\n", replace: "c\n", expected_count: 2 })).toBe(
        "Patched custom skill 'my-skill' (2 replacement(s) applied, 2 match(es) found).",
      );
      expect(await store.read("my-skill")).toBe(skillMd("my-skill", "d", "b\nc\nc\n"));
    });

    it.each([
      [{ find: "a" }, "Error: find and replace are required for patch."],
      [{ replace: "a" }, "Error: find and replace are required for patch."],
      [{ find: "zzz", replace: "y" }, "Error: Patch target not found in SKILL.md."],
      [{ find: "a\n", replace: "y", expected_count: 5 }, "Error: Expected 5 replacements but found 3."],
    ])("fails for %j", async (args, expected) => {
      expect(await call({ action: "patch", name: "my-skill", ...args })).toBe(expected);
    });
  });

  describe("write_file and remove_file", () => {
    beforeEach(async () => {
      await create();
    });

    it("writes and removes a support file", async () => {
      expect(await call({ action: "write_file", name: "my-skill", path: "references/api.md", content: "GET /" })).toBe(
        "Wrote 'references/api.md' for custom skill 'my-skill'.",
      );
      expect(await call({ action: "remove_file", name: "my-skill", path: "references/api.md" })).toBe(
        "Removed 'references/api.md' from custom skill 'my-skill'.",
      );
      expect((await store.history("my-skill")).map((r) => r.action)).toEqual(["create", "write_file", "remove_file"]);
    });

    it("requires path and content for write_file and path for remove_file", async () => {
      expect(await call({ action: "write_file", name: "my-skill", path: "references/a.md" })).toBe(
        "Error: path and content are required for write_file.",
      );
      expect(await call({ action: "write_file", name: "my-skill", content: "x" })).toBe(
        "Error: path and content are required for write_file.",
      );
      expect(await call({ action: "remove_file", name: "my-skill" })).toBe("Error: path is required for remove_file.");
    });

    it.each([
      ["../x", "Error: Supporting file path must not contain parent-directory traversal."],
      ["/etc/passwd", "Error: Supporting file path must be relative."],
      ["references/../../x", "Error: Supporting file path must not contain parent-directory traversal."],
      ["scripts/", "Error: Supporting file path must include a filename."],
      ["notes.md", "Error: Supporting files must live under one of: assets, references, scripts, templates."],
    ])("refuses the hostile path %j", async (hostile, expected) => {
      expect(await call({ action: "write_file", name: "my-skill", path: hostile, content: "x" })).toBe(expected);
      expect(existsSync(path.join(roots.base, "x"))).toBe(false);
    });

    it("refuses a symlink inside references/ that points outside the skill, leaving the target untouched", async () => {
      const victim = path.join(roots.base, "victim");
      await mkdir(victim);
      await writeFile(path.join(victim, "data.txt"), "original");
      await mkdir(path.join(roots.customRoot, "my-skill", "references"));
      await symlink(victim, path.join(roots.customRoot, "my-skill", "references", "link"));
      expect(
        await call({ action: "write_file", name: "my-skill", path: "references/link/data.txt", content: "pwned" }),
      ).toBe("Error: Supporting file path must stay within the selected support directory.");
      expect(await call({ action: "remove_file", name: "my-skill", path: "references/link/data.txt" })).toBe(
        "Error: Supporting file path must stay within the selected support directory.",
      );
      expect(await readFile(path.join(victim, "data.txt"), "utf8")).toBe("original");
    });

    it("reports a missing file on remove_file", async () => {
      expect(await call({ action: "remove_file", name: "my-skill", path: "scripts/none.py" })).toBe(
        "Error: Supporting file 'scripts/none.py' not found for skill 'my-skill'.",
      );
    });
  });

  it("deletes a skill", async () => {
    await create();
    expect(await call({ action: "delete", name: "my-skill" })).toBe("Deleted custom skill 'my-skill'.");
    expect(existsSync(path.join(roots.customRoot, "my-skill"))).toBe(false);
  });

  describe("security messages", () => {
    it("passes moderation blocks and executable rejections through", async () => {
      let decision: "allow" | "warn" | "block" = "allow";
      const moderated = new CustomSkillStore({
        customRoot: roots.customRoot,
        moderation: new ScriptedModeration(() => ({ decision, reason: "Because." })),
      });
      expect(await call({ action: "create", name: "my-skill", content: skillMd("my-skill") }, "t", moderated)).toBe(
        "Created custom skill 'my-skill'.",
      );
      decision = "block";
      expect(await call({ action: "edit", name: "my-skill", content: skillMd("my-skill", "B.") }, "t", moderated)).toBe(
        "Error: Security scan blocked the write: Because.",
      );
      decision = "warn";
      expect(
        await call(
          { action: "write_file", name: "my-skill", path: "scripts/a.py", content: "print(1)" },
          "t",
          moderated,
        ),
      ).toBe("Error: Security scan rejected executable content: Because.");
    });

    it("appends the findings JSON to a static block, capped at 500 characters", async () => {
      const scanned = new CustomSkillStore({ customRoot: roots.customRoot, staticScanner: new MarkerScanner("EVIL") });
      const text = await call(
        { action: "create", name: "my-skill", content: skillMd("my-skill", "d", "EVIL") },
        "t",
        scanned,
      );
      expect(
        text.startsWith(
          'Error: Static security scan blocked skill \'my-skill\': test-marker (CRITICAL) at SKILL.md:1: Marker found. Remediation: Remove it. Findings: {"skill_name": "my-skill", "findings": [{"rule_id": "test-marker"',
        ),
      ).toBe(true);
      expect(text.length).toBeLessThanOrEqual("Error: ".length + MAX_TOOL_ERROR_CHARS + 1);
    });
  });

  it("returns an error ToolMessage (not a throw) when called with a tool call", async () => {
    const message: unknown = await createSkillManageTool(store).invoke({
      type: "tool_call",
      id: "call_7",
      name: "skill_manage",
      args: { action: "delete", name: "ghost" },
    });
    expect(message).toBeInstanceOf(ToolMessage);
    expect((message as ToolMessage).content).toBe("Error: Custom skill 'ghost' not found.");
    expect((message as ToolMessage).tool_call_id).toBe("call_7");
  });

  it("hides host paths of unexpected failures from the model", async () => {
    await create();
    await rm(path.join(roots.customRoot, ".history"), { recursive: true });
    await writeFile(path.join(roots.customRoot, ".history"), "not a directory");
    const text = await call({ action: "edit", name: "my-skill", content: skillMd("my-skill", "B.") });
    expect(text).toMatch(/^Error: skill_manage failed unexpectedly/);
    expect(text).not.toContain(roots.base);
    expect(await store.read("my-skill")).toBe(skillMd("my-skill"));
  });
});
