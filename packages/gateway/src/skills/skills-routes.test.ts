import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ModerationScanner } from "@deerflow/skills";
import { createGateway, type SkillsBackend } from "../index.js";
import { ADMIN_KEY, USER_KEY, createFixture, putThreadFile, type Fixture } from "../../test/support/fixture.js";
import { skillArchive, skillMd } from "../../test/support/zip.js";

const admin = { "x-api-key": ADMIN_KEY };
const user = { "x-api-key": USER_KEY };
const ADMIN_ONLY = { detail: "Admin privileges required to manage skills." };
const PRIVATE_KEY =
  "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n";

describe("skills routes", () => {
  let fx: Fixture;
  afterEach(async () => {
    await fx.close();
  });

  async function installCustom(name: string): Promise<void> {
    await putThreadFile(fx, "t1", `outputs/${name}.skill`, skillArchive(name));
    const res = await fx.app.inject({
      method: "POST",
      url: "/api/skills/install",
      headers: admin,
      payload: { thread_id: "t1", path: `/mnt/user-data/outputs/${name}.skill` },
    });
    expect(res.statusCode).toBe(200);
  }

  describe("GET /api/skills", () => {
    it("lists every category sorted by name with DeerFlow's SkillResponse", async () => {
      fx = await createFixture({
        auth: true,
        publicSkills: {
          "zeta-tool": skillMd("zeta-tool"),
          "alpha-tool": `---\nname: alpha-tool\ndescription: Alpha. Use for alpha.\nlicense: MIT\n---\n`,
        },
      });
      await installCustom("mid-tool");
      const res = await fx.app.inject({ url: "/api/skills", headers: user });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        skills: [
          {
            name: "alpha-tool",
            description: "Alpha. Use for alpha.",
            license: "MIT",
            category: "public",
            enabled: true,
            editable: false,
          },
          {
            name: "mid-tool",
            description: "Does mid-tool things. Use when asked about mid-tool.",
            license: null,
            category: "custom",
            enabled: true,
            editable: true,
          },
          {
            name: "zeta-tool",
            description: "Does zeta-tool things. Use when asked about zeta-tool.",
            license: null,
            category: "public",
            enabled: true,
            editable: false,
          },
        ],
      });
    });

    it("includes disabled skills", async () => {
      fx = await createFixture();
      await fx.app.inject({ method: "PUT", url: "/api/skills/deep-research", payload: { enabled: false } });
      const skills = (await fx.app.inject({ url: "/api/skills" })).json().skills as Array<{
        name: string;
        enabled: boolean;
      }>;
      expect(skills.find((s) => s.name === "deep-research")?.enabled).toBe(false);
    });

    it("answers a failing catalog with a generic 500", async () => {
      const broken: SkillsBackend = {
        forUser: async () => Promise.reject(new Error("EACCES /srv/skills")),
        reload: async () => undefined,
      };
      const app = await createGateway({ skills: { backend: broken } });
      const res = await app.inject({ url: "/api/skills" });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ detail: "Failed to load skills." });
      await app.close();
      fx = await createFixture();
    });
  });

  describe("GET /api/skills/custom", () => {
    it("lists only custom skills, for any user", async () => {
      fx = await createFixture({ auth: true });
      await installCustom("mine");
      const res = await fx.app.inject({ url: "/api/skills/custom", headers: user });
      expect(res.json().skills.map((s: { name: string }) => s.name)).toEqual(["mine"]);
    });
  });

  describe("GET /api/skills/:skill_name", () => {
    it("returns the effective skill", async () => {
      fx = await createFixture();
      expect((await fx.app.inject({ url: "/api/skills/deep-research" })).json()).toMatchObject({
        name: "deep-research",
        category: "public",
        editable: false,
      });
    });

    it("strips newlines from the name", async () => {
      fx = await createFixture();
      expect((await fx.app.inject({ url: "/api/skills/deep-%0Aresearch%0D%0A" })).statusCode).toBe(200);
    });

    it("answers 404 with DeerFlow's text", async () => {
      fx = await createFixture();
      const res = await fx.app.inject({ url: "/api/skills/nope" });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: "Skill 'nope' not found" });
    });

    it("shows a custom skill shadowing a public one", async () => {
      fx = await createFixture();
      await installCustom("deep-research");
      expect((await fx.app.inject({ url: "/api/skills/deep-research" })).json()).toMatchObject({
        category: "custom",
        editable: true,
      });
    });
  });

  describe("PUT /api/skills/:skill_name", () => {
    it("disables a skill and persists it in extensions_config.json", async () => {
      fx = await createFixture({ auth: true });
      const res = await fx.app.inject({
        method: "PUT",
        url: "/api/skills/deep-research",
        headers: admin,
        payload: { enabled: false },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ name: "deep-research", enabled: false });
      const config = JSON.parse(await readFile(path.join(fx.dir, "extensions_config.json"), "utf8")) as unknown;
      expect(config).toEqual({ skills: { "deep-research": { enabled: false } } });
    });

    it("answers 404 for an unknown skill", async () => {
      fx = await createFixture();
      const res = await fx.app.inject({ method: "PUT", url: "/api/skills/nope", payload: { enabled: true } });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: "Skill 'nope' not found" });
    });

    it("answers a non-admin 403 before validating the body", async () => {
      fx = await createFixture({ auth: true });
      const res = await fx.app.inject({
        method: "PUT",
        url: "/api/skills/deep-research",
        headers: user,
        payload: { nonsense: 1 },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(ADMIN_ONLY);
    });

    it("requires enabled", async () => {
      fx = await createFixture();
      const res = await fx.app.inject({ method: "PUT", url: "/api/skills/deep-research", payload: {} });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ detail: [{ loc: ["body", "enabled"], msg: "Field required", type: "missing" }] });
    });
  });

  describe("POST /api/skills/reload", () => {
    it("answers DeerFlow's exact body", async () => {
      fx = await createFixture();
      const res = await fx.app.inject({ method: "POST", url: "/api/skills/reload" });
      expect(res.json()).toEqual({
        success: true,
        scope: "process",
        message: "Skill caches invalidated; subsequent runs in this Gateway process will rescan the latest skills.",
      });
    });

    it("accepts an empty JSON body", async () => {
      fx = await createFixture();
      expect(
        (
          await fx.app.inject({
            method: "POST",
            url: "/api/skills/reload",
            headers: { "content-type": "application/json" },
          })
        ).statusCode,
      ).toBe(200);
    });

    it("is admin-only", async () => {
      fx = await createFixture({ auth: true });
      const res = await fx.app.inject({ method: "POST", url: "/api/skills/reload", headers: user });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(ADMIN_ONLY);
    });

    it("answers a failed or stuck rescan with a generic 500", async () => {
      fx = await createFixture();
      const failing: SkillsBackend = {
        forUser: async () => Promise.reject(new Error("unused")),
        reload: async () => Promise.reject(new Error("/srv/skills: EIO")),
      };
      const stuck: SkillsBackend = {
        forUser: async () => Promise.reject(new Error("unused")),
        reload: () => new Promise(() => undefined),
      };
      for (const backend of [failing, stuck]) {
        const app = await createGateway({ skills: { backend, reloadTimeoutMs: 20 } });
        const res = await app.inject({ method: "POST", url: "/api/skills/reload" });
        expect(res.statusCode).toBe(500);
        expect(res.json()).toEqual({ detail: "Failed to invalidate skills cache." });
        await app.close();
      }
    });
  });

  describe("GET /api/skills/custom/:skill_name", () => {
    it("returns the skill with its raw SKILL.md", async () => {
      fx = await createFixture({ auth: true });
      await installCustom("notes");
      const res = await fx.app.inject({ url: "/api/skills/custom/notes", headers: admin });
      expect(res.json()).toEqual({
        name: "notes",
        description: "Does notes things. Use when asked about notes.",
        license: null,
        category: "custom",
        enabled: true,
        editable: true,
        content: skillMd("notes"),
      });
    });

    it("answers 404 for a public or unknown name", async () => {
      fx = await createFixture();
      for (const name of ["deep-research", "nope", "..%2F..%2Fetc"]) {
        const res = await fx.app.inject({ url: `/api/skills/custom/${name}` });
        expect(res.statusCode).toBe(404);
        expect(res.json().detail).toMatch(/^Custom skill '.*' not found$/);
      }
    });

    it("is admin-only", async () => {
      fx = await createFixture({ auth: true });
      expect((await fx.app.inject({ url: "/api/skills/custom/notes", headers: user })).statusCode).toBe(403);
    });
  });

  describe("PUT /api/skills/custom/:skill_name", () => {
    it("replaces the SKILL.md and returns the re-read skill", async () => {
      fx = await createFixture();
      await installCustom("notes");
      const content = skillMd("notes", "Meeting notes. Use for transcripts.");
      const res = await fx.app.inject({ method: "PUT", url: "/api/skills/custom/notes", payload: { content } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ name: "notes", description: "Meeting notes. Use for transcripts.", content });
    });

    it.each([
      [
        "a public skill",
        "deep-research",
        skillMd("deep-research"),
        "'deep-research' is a built-in skill. Use the skill_manage tool to create your own version — it will shadow the built-in one.",
      ],
      [
        "a name mismatch",
        "notes",
        skillMd("other"),
        "Frontmatter name 'other' must match requested skill name 'notes'.",
      ],
      ["invalid frontmatter", "notes", "no frontmatter", "No YAML frontmatter found"],
      [
        "a bad name",
        "Bad_Name",
        skillMd("bad"),
        "Skill name must be hyphen-case using lowercase letters, digits, and hyphens only.",
      ],
    ])("answers 400 for %s", async (_l, name, content, detail) => {
      fx = await createFixture();
      await installCustom("notes");
      const res = await fx.app.inject({ method: "PUT", url: `/api/skills/custom/${name}`, payload: { content } });
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toContain(detail);
    });

    it("answers 404 for an unknown custom skill with the one not-found text", async () => {
      fx = await createFixture();
      const res = await fx.app.inject({
        method: "PUT",
        url: "/api/skills/custom/nope",
        payload: { content: skillMd("nope") },
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: "Custom skill 'nope' not found" });
    });

    it("answers a static security block with the structured detail and keeps the old content", async () => {
      fx = await createFixture();
      await installCustom("notes");
      const res = await fx.app.inject({
        method: "PUT",
        url: "/api/skills/custom/notes",
        payload: { content: skillMd("notes", "d", PRIVATE_KEY) },
      });
      expect(res.statusCode).toBe(400);
      const detail = res.json().detail;
      expect(detail.skill_name).toBe("notes");
      expect(detail.message).toMatch(/^Static security scan blocked skill 'notes': secret-private-key \(CRITICAL\)/);
      expect(detail.findings[0]).toMatchObject({
        rule_id: "secret-private-key",
        severity: "CRITICAL",
        file: "SKILL.md",
        evidence: "[redacted]",
      });
      expect((await fx.app.inject({ url: "/api/skills/custom/notes" })).json().content).toBe(skillMd("notes"));
    });

    it("answers a non-admin 403 before validating the body", async () => {
      fx = await createFixture({ auth: true });
      const res = await fx.app.inject({
        method: "PUT",
        url: "/api/skills/custom/notes",
        headers: user,
        payload: "{broken",
      });
      expect(res.statusCode).toBe(403);
    });
  });

  describe("with a moderation scanner", () => {
    const blocking: ModerationScanner = {
      id: "block-forbidden",
      moderate: async ({ content }) =>
        content.includes("FORBIDDEN")
          ? { decision: "block", reason: "Forbidden word." }
          : { decision: "allow", reason: "Fine." },
    };

    it("answers a blocked edit with DeerFlow's text and keeps the old content", async () => {
      fx = await createFixture({ moderation: blocking });
      await installCustom("notes");
      const res = await fx.app.inject({
        method: "PUT",
        url: "/api/skills/custom/notes",
        payload: { content: skillMd("notes", "d", "FORBIDDEN\n") },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: "Security scan blocked the edit: Forbidden word." });
      expect((await fx.app.inject({ url: "/api/skills/custom/notes" })).json().content).toBe(skillMd("notes"));
    });

    it("answers a blocked install with DeerFlow's text", async () => {
      fx = await createFixture({ moderation: blocking });
      await putThreadFile(fx, "t1", "outputs/bad.skill", skillArchive("bad", { "references/x.md": "FORBIDDEN" }));
      const res = await fx.app.inject({
        method: "POST",
        url: "/api/skills/install",
        payload: { thread_id: "t1", path: "/mnt/user-data/outputs/bad.skill" },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: "Security scan blocked bad/references/x.md: Forbidden word." });
    });
  });

  describe("DELETE, history and rollback", () => {
    it("deletes, keeps the history readable, and rolls back to a deleted skill", async () => {
      fx = await createFixture();
      await installCustom("notes");
      const v2 = skillMd("notes", "Version two. Use for v2.");
      await fx.app.inject({ method: "PUT", url: "/api/skills/custom/notes", payload: { content: v2 } });
      expect((await fx.app.inject({ method: "DELETE", url: "/api/skills/custom/notes" })).json()).toEqual({
        success: true,
      });
      expect((await fx.app.inject({ url: "/api/skills/notes" })).statusCode).toBe(404);

      const history = (await fx.app.inject({ url: "/api/skills/custom/notes/history" })).json().history as Array<
        Record<string, unknown>
      >;
      expect(history.map((h) => h["action"])).toEqual(["human_edit", "human_delete"]);
      expect(history[1]).toMatchObject({
        author: "human",
        thread_id: null,
        file_path: "SKILL.md",
        prev_content: v2,
        new_content: null,
        scanner: { decision: "allow", reason: "Deletion requested." },
      });

      const rolled = await fx.app.inject({
        method: "POST",
        url: "/api/skills/custom/notes/rollback",
        payload: { history_index: -1 },
      });
      expect(rolled.statusCode).toBe(200);
      expect(rolled.json()).toMatchObject({ name: "notes", content: v2, category: "custom" });
      const last = (await fx.app.inject({ url: "/api/skills/custom/notes/history" })).json().history.at(-1);
      expect(last).toMatchObject({ action: "rollback", rollback_from_ts: history[1]?.["ts"] });
    });

    it("defaults history_index to -1", async () => {
      fx = await createFixture();
      await installCustom("notes");
      await fx.app.inject({
        method: "PUT",
        url: "/api/skills/custom/notes",
        payload: { content: skillMd("notes", "Two. Use for two.") },
      });
      const res = await fx.app.inject({ method: "POST", url: "/api/skills/custom/notes/rollback", payload: {} });
      expect(res.json().content).toBe(skillMd("notes"));
    });

    it.each([
      [{}, "Custom skill 'notes' has no history"],
      [{ history_index: 5 }, "Custom skill 'notes' has no history"],
    ])("answers 400 without history (%j)", async (body, detail) => {
      fx = await createFixture();
      await installCustom("notes");
      const res = await fx.app.inject({ method: "POST", url: "/api/skills/custom/notes/rollback", payload: body });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail });
    });

    it("answers 400 for an out-of-range index", async () => {
      fx = await createFixture();
      await installCustom("notes");
      await fx.app.inject({
        method: "PUT",
        url: "/api/skills/custom/notes",
        payload: { content: skillMd("notes", "Two. Use for two.") },
      });
      const res = await fx.app.inject({
        method: "POST",
        url: "/api/skills/custom/notes/rollback",
        payload: { history_index: 3 },
      });
      expect(res.json()).toEqual({ detail: "history_index is out of range" });
    });

    it("answers 422 for a non-integer index", async () => {
      fx = await createFixture();
      const res = await fx.app.inject({
        method: "POST",
        url: "/api/skills/custom/notes/rollback",
        payload: { history_index: 1.5 },
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().detail[0]).toMatchObject({ loc: ["body", "history_index"], type: "int_type" });
    });

    it("answers 404 for history of a skill that never existed", async () => {
      fx = await createFixture();
      const res = await fx.app.inject({ url: "/api/skills/custom/nope/history" });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: "Custom skill 'nope' not found" });
    });

    it("answers 404 and 400 on delete of unknown and public skills", async () => {
      fx = await createFixture();
      expect((await fx.app.inject({ method: "DELETE", url: "/api/skills/custom/nope" })).json()).toEqual({
        detail: "Custom skill 'nope' not found",
      });
      const pub = await fx.app.inject({ method: "DELETE", url: "/api/skills/custom/deep-research" });
      expect(pub.statusCode).toBe(400);
    });

    it.each([
      ["DELETE", "/api/skills/custom/notes"],
      ["GET", "/api/skills/custom/notes/history"],
      ["POST", "/api/skills/custom/notes/rollback"],
    ] as const)("%s %s is admin-only", async (method, url) => {
      fx = await createFixture({ auth: true });
      const res = await fx.app.inject({
        method,
        url,
        headers: user,
        ...(method === "POST" ? { payload: { history_index: "x" } } : {}),
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(ADMIN_ONLY);
    });
  });
});
