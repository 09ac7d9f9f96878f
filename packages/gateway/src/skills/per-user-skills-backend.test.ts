import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { UserSkillsStorage } from "@deerflow/skills";
import type { FastifyInstance } from "fastify";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { skillArchive, skillMd } from "../../test/support/zip.js";
import { LocalThreadFiles, createGateway, createPerUserSkillsBackend } from "../index.js";

const KEYS = { root: "root-key-0123456789", ops: "ops-key-01234567890", alice: "alice-key-0123456789" } as const;
type Who = keyof typeof KEYS;
const ADMIN_ONLY = { detail: "Admin privileges required to manage skills." };

let dir: string;
let app: FastifyInstance;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "gateway-per-user-skills-"));
  const root = path.join(dir, "skills");
  await mkdir(path.join(root, "public", "deep-research"), { recursive: true });
  await writeFile(path.join(root, "public", "deep-research", "SKILL.md"), skillMd("deep-research"));
  await mkdir(path.join(root, "custom", "team-notes"), { recursive: true });
  await writeFile(path.join(root, "custom", "team-notes", "SKILL.md"), skillMd("team-notes"));
  const storage = new UserSkillsStorage({
    root,
    dataDir: path.join(dir, "data"),
    extensionsConfigPath: path.join(dir, "extensions_config.json"),
  });
  app = await createGateway({
    skills: { backend: createPerUserSkillsBackend({ storage }), tempDir: dir },
    threadFiles: new LocalThreadFiles({ root: path.join(dir, "data") }),
    auth: {
      apiKeys: [
        { key: KEYS.root, userId: "root", admin: true },
        { key: KEYS.ops, userId: "ops", admin: true },
        { key: KEYS.alice, userId: "alice" },
      ],
    },
  });
  await app.ready();
});
afterEach(async () => {
  await app.close();
  await rm(dir, { recursive: true, force: true });
});

const call = async (who: Who, method: string, url: string, payload?: unknown) => {
  const res = await app.inject({
    method: method as "GET",
    url,
    headers: { "x-api-key": KEYS[who] },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  return { status: res.statusCode, body: res.body === "" ? undefined : (res.json() as Record<string, unknown>) };
};
const listed = async (who: Who, url = "/api/skills") =>
  ((await call(who, "GET", url)).body?.["skills"] as { name: string; category: string; enabled: boolean }[]).map(
    (s) => `${s.category}:${s.name}:${s.enabled}`,
  );

async function installAs(who: Who, name: string): Promise<void> {
  const file = path.join(dir, "data", "users", who, "threads", "t1", "user-data", "outputs", `${name}.skill`);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, skillArchive(name));
  const res = await call(who, "POST", "/api/skills/install", {
    thread_id: "t1",
    path: `/mnt/user-data/outputs/${name}.skill`,
  });
  expect(res).toEqual({
    status: 200,
    body: { success: true, skill_name: name, message: `Skill '${name}' installed successfully for user '${who}'` },
  });
}

describe("createPerUserSkillsBackend", () => {
  it("keeps one admin's installed custom skill out of another's listings, content, edits and toggles", async () => {
    await installAs("root", "root-tool");
    expect(await listed("root")).toEqual(["public:deep-research:true", "custom:root-tool:true"]);
    expect(await listed("root", "/api/skills/custom")).toEqual(["custom:root-tool:true"]);
    // ops has no custom skill: the shared folder shows as read-only legacy, never root's skill.
    expect(await listed("ops")).toEqual(["public:deep-research:true", "legacy:team-notes:true"]);
    expect(await listed("ops", "/api/skills/custom")).toEqual([]);

    const missing = { detail: "Custom skill 'root-tool' not found" };
    for (const [method, url, payload] of [
      ["GET", "/api/skills/custom/root-tool", undefined],
      ["PUT", "/api/skills/custom/root-tool", { content: skillMd("root-tool") }],
      ["DELETE", "/api/skills/custom/root-tool", undefined],
      ["GET", "/api/skills/custom/root-tool/history", undefined],
      ["POST", "/api/skills/custom/root-tool/rollback", { history_index: -1 }],
    ] as const)
      expect(await call("ops", method, url, payload)).toEqual({ status: 404, body: missing });
    const notFound = { status: 404, body: { detail: "Skill 'root-tool' not found" } };
    expect(await call("ops", "GET", "/api/skills/root-tool")).toEqual(notFound);
    expect(await call("ops", "GET", "/api/skills/root-tool/files")).toEqual(notFound);
    expect(await call("ops", "PUT", "/api/skills/root-tool", { enabled: false })).toEqual(notFound);
    // Nothing of root's changed.
    expect((await call("root", "GET", "/api/skills/custom/root-tool")).body?.["content"]).toBe(skillMd("root-tool"));
    expect(await listed("root")).toContain("custom:root-tool:true");
  });

  it("writes a custom toggle to the caller's own state file, and a public toggle for everyone", async () => {
    await installAs("root", "root-tool");
    expect((await call("root", "PUT", "/api/skills/root-tool", { enabled: false })).body).toMatchObject({
      category: "custom",
      enabled: false,
    });
    expect(JSON.parse(await readFile(path.join(dir, "data/users/root/skills/_skill_states.json"), "utf8"))).toEqual({
      "root-tool": { enabled: false },
    });
    // A legacy toggle is per user too.
    await call("ops", "PUT", "/api/skills/team-notes", { enabled: false });
    expect(await listed("ops")).toContain("legacy:team-notes:false");
    expect(await listed("alice")).toContain("legacy:team-notes:true");

    await call("ops", "PUT", "/api/skills/deep-research", { enabled: false });
    expect(await listed("root")).toContain("public:deep-research:false");
    expect(await listed("alice")).toContain("public:deep-research:false");
  });

  it("answers non-admins 403 on every change, and shows them only their own custom skills", async () => {
    await installAs("root", "root-tool");
    for (const [method, url, payload] of [
      ["PUT", "/api/skills/deep-research", { enabled: false }],
      ["GET", "/api/skills/custom/root-tool", undefined],
      ["DELETE", "/api/skills/custom/root-tool", undefined],
      ["POST", "/api/skills/reload", undefined],
      ["POST", "/api/skills/install", { thread_id: "t1", path: "/mnt/user-data/outputs/x.skill" }],
    ] as const)
      expect(await call("alice", method, url, payload)).toEqual({ status: 403, body: ADMIN_ONLY });
    expect(await listed("alice", "/api/skills/custom")).toEqual([]);
    expect(await call("alice", "GET", "/api/skills/root-tool")).toMatchObject({ status: 404 });
  });

  it("reload forgets every user's cache, and skills on disk are read again", async () => {
    await installAs("root", "root-tool");
    expect(await listed("root")).toContain("custom:root-tool:true");
    // A skill added behind the server's back appears after a reload.
    const extra = path.join(dir, "data/users/root/skills/custom/hand-made");
    await mkdir(extra, { recursive: true });
    await writeFile(path.join(extra, "SKILL.md"), skillMd("hand-made"));
    expect((await call("ops", "POST", "/api/skills/reload")).status).toBe(200);
    expect(await listed("root")).toContain("custom:hand-made:true");
  });
});
