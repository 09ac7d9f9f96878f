import { randomBytes } from "node:crypto";
import { mkdir, readdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ADMIN_KEY, USER_KEY, createFixture, putThreadFile, type Fixture } from "../../test/support/fixture.js";
import { multipartBody } from "../../test/support/multipart.js";
import { buildZip, skillArchive, skillMd } from "../../test/support/zip.js";

const admin = { "x-api-key": ADMIN_KEY };
const user = { "x-api-key": USER_KEY };
const KEY_PEM = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----\n";

/** Hostile and broken archives, with the status and detail @deerflow/skills gives them. */
const HOSTILE: ReadonlyArray<[string, () => Buffer, number, (detail: unknown) => void]> = [
  [
    "zip-slip member",
    () =>
      buildZip([
        { name: "evil/SKILL.md", data: skillMd("evil") },
        { name: "../escape.txt", data: "x" },
      ]),
    400,
    (d) =>
      expect(d).toMatchObject({
        skill_name: null,
        findings: [{ rule_id: "package-path-traversal", severity: "CRITICAL", file: "../escape.txt" }],
      }),
  ],
  [
    "absolute member",
    () =>
      buildZip([
        { name: "evil/SKILL.md", data: skillMd("evil") },
        { name: "/etc/cron.d/x", data: "x" },
      ]),
    400,
    (d) => expect(d).toMatchObject({ skill_name: null, findings: [{ rule_id: "package-absolute-path" }] }),
  ],
  [
    "zip bomb (65 MiB of zeros)",
    () =>
      buildZip([
        { name: "bomb/SKILL.md", data: skillMd("bomb") },
        { name: "bomb/assets/z.bin", data: Buffer.alloc(65 * 1024 * 1024), deflate: true },
      ]),
    400,
    (d) =>
      expect(d).toMatchObject({
        skill_name: null,
        findings: [{ rule_id: "package-oversized-file", severity: "CRITICAL" }],
      }),
  ],
  [
    "embedded private key",
    () => skillArchive("keyed", { "references/key.pem": KEY_PEM }),
    400,
    (d) =>
      expect(d).toMatchObject({
        skill_name: "keyed",
        findings: [{ rule_id: "secret-private-key", evidence: "[redacted]" }],
      }),
  ],
  [
    "executable binary",
    () =>
      buildZip([
        { name: "b/SKILL.md", data: skillMd("b") },
        { name: "b/scripts/x", data: Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1]) },
      ]),
    400,
    (d) => expect(d).toBe("Archive contains executable binary member: 'b/scripts/x'"),
  ],
  ["not a zip", () => Buffer.from("just text"), 400, (d) => expect(d).toBe("File is not a valid ZIP archive")],
  [
    "empty archive",
    () => buildZip([{ name: "__MACOSX/x", data: "x" }]),
    400,
    (d) => expect(d).toBe("Skill archive is empty"),
  ],
  [
    "invalid frontmatter",
    () => buildZip([{ name: "Bad/SKILL.md", data: "---\nname: Bad_Name\ndescription: x\n---\n" }]),
    400,
    (d) =>
      expect(d).toBe(
        "Invalid skill: Name 'Bad_Name' should be hyphen-case (lowercase letters, digits, and hyphens only)",
      ),
  ],
];

describe("skill installs", () => {
  let fx: Fixture;
  beforeEach(async () => {
    fx = await createFixture({ auth: true });
  });
  afterEach(async () => {
    await fx.close();
  });

  const install = (body: Record<string, unknown>, headers: Record<string, string> = admin) =>
    fx.app.inject({ method: "POST", url: "/api/skills/install", headers, payload: body });
  const upload = (files: Parameters<typeof multipartBody>[0], headers: Record<string, string> = admin) => {
    const body = multipartBody(files);
    return fx.app.inject({
      method: "POST",
      url: "/api/skills/upload",
      payload: body.payload,
      headers: { ...headers, ...body.headers },
    });
  };
  const customDirs = async () => (await readdir(path.join(fx.skillsRoot, "custom"))).filter((n) => !n.startsWith("."));
  /** Leftovers of archive copies in the gateway's temp dir (the fixture's dir). */
  const stagingLeftovers = async () => (await readdir(fx.dir)).filter((n) => n.startsWith("deerflow-gateway-skill-"));

  describe("POST /api/skills/install", () => {
    it("installs a .skill from the thread's outputs, naming the user", async () => {
      await putThreadFile(fx, "t1", "outputs/pdf-tools.skill", skillArchive("pdf-tools"));
      const res = await install({ thread_id: "t1", path: "mnt/user-data/outputs/pdf-tools.skill" });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        success: true,
        skill_name: "pdf-tools",
        message: "Skill 'pdf-tools' installed successfully for user 'default'",
      });
      expect((await fx.app.inject({ url: "/api/skills/pdf-tools", headers: user })).json()).toMatchObject({
        category: "custom",
        enabled: true,
      });
      expect(await stagingLeftovers()).toEqual([]);
    });

    it("answers the second install of a name with 409", async () => {
      await putThreadFile(fx, "t1", "uploads/a.skill", skillArchive("dup"));
      expect((await install({ thread_id: "t1", path: "/mnt/user-data/uploads/a.skill" })).statusCode).toBe(200);
      const again = await install({ thread_id: "t1", path: "/mnt/user-data/uploads/a.skill" });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ detail: "Skill 'dup' already exists" });
    });

    it("lets exactly one of two concurrent installs of one skill win", async () => {
      await putThreadFile(
        fx,
        "t1",
        "outputs/race.skill",
        skillArchive("race", { "references/notes.md": "x".repeat(200_000) }),
      );
      const body = { thread_id: "t1", path: "/mnt/user-data/outputs/race.skill" };
      const results = await Promise.all([install(body), install(body)]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      expect(await customDirs()).toEqual(["race"]);
      expect(await stagingLeftovers()).toEqual([]);
    });

    it.each([
      ["../", "/mnt/user-data/../../../etc/passwd.skill"],
      ["..\\", "/mnt/user-data/outputs/..\\..\\x.skill"],
      ["a deep ../", "mnt/user-data/outputs/a/../../../../x.skill"],
    ])("answers traversal with %s with 403", async (_l, p) => {
      const res = await install({ thread_id: "t1", path: p });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ detail: "Access denied: path traversal detected" });
    });

    it.each(["/etc/passwd", "/mnt/user-data-x/a.skill", "relative/a.skill", "/tmp/../mnt/user-data/outputs/a.skill"])(
      "answers %j with 400",
      async (p) => {
        const res = await install({ thread_id: "t1", path: p });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ detail: "Path must start with /mnt/user-data" });
      },
    );

    it("answers a NUL byte with 400", async () => {
      expect((await install({ thread_id: "t1", path: "/mnt/user-data/outputs/a\u0000.skill" })).statusCode).toBe(400);
    });

    it("answers a symlink leading out of the thread with 403", async () => {
      const outside = path.join(fx.dir, "elsewhere.skill");
      await writeFile(outside, skillArchive("outside"));
      await mkdir(path.join(fx.userData("t1"), "outputs"), { recursive: true });
      await symlink(outside, path.join(fx.userData("t1"), "outputs", "link.skill"));
      const res = await install({ thread_id: "t1", path: "/mnt/user-data/outputs/link.skill" });
      expect(res.statusCode).toBe(403);
      expect(await customDirs()).toEqual([]);
    });

    it("answers a missing file with 404 naming the virtual path", async () => {
      const res = await install({ thread_id: "t1", path: "/mnt/user-data/outputs/none.skill" });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: "Skill file not found: /mnt/user-data/outputs/none.skill" });
    });

    it("answers a folder and a wrong extension with 400", async () => {
      await putThreadFile(fx, "t1", "outputs/dir.skill/x", "x");
      expect((await install({ thread_id: "t1", path: "/mnt/user-data/outputs/dir.skill" })).json()).toEqual({
        detail: "Path is not a file: /mnt/user-data/outputs/dir.skill",
      });
      await putThreadFile(fx, "t1", "outputs/x.zip", skillArchive("zipped"));
      expect((await install({ thread_id: "t1", path: "/mnt/user-data/outputs/x.zip" })).json()).toEqual({
        detail: "File must have .skill extension",
      });
    });

    it("installs from another user's thread only by that user's id", async () => {
      await putThreadFile(fx, "t1", "outputs/a.skill", skillArchive("theirs"), "alice");
      expect((await install({ thread_id: "t1", path: "/mnt/user-data/outputs/a.skill" })).statusCode).toBe(404);
    });

    it.each([
      [
        { thread_id: "../t1", path: "/mnt/user-data/outputs/a.skill" },
        ["body", "thread_id"],
        "string_pattern_mismatch",
      ],
      [
        { thread_id: "t".repeat(65), path: "/mnt/user-data/outputs/a.skill" },
        ["body", "thread_id"],
        "string_pattern_mismatch",
      ],
      [{ thread_id: "t1" }, ["body", "path"], "missing"],
      [{ thread_id: "t1", path: "/mnt/user-data/a.skill", extra: true }, ["body", "extra"], "extra_forbidden"],
    ])("answers a bad body with 422 (%j)", async (body, loc, type) => {
      const res = await install(body);
      expect(res.statusCode).toBe(422);
      expect(res.json().detail[0]).toMatchObject({ loc, type });
    });

    it("answers a non-admin 403 before validating the body", async () => {
      const res = await install({ thread_id: "../bad" }, user);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ detail: "Admin privileges required to manage skills." });
    });

    it.each(HOSTILE)("rejects a %s archive, leaving nothing installed", async (_l, archive, status, check) => {
      await putThreadFile(fx, "t1", "outputs/h.skill", archive());
      const res = await install({ thread_id: "t1", path: "/mnt/user-data/outputs/h.skill" });
      expect(res.statusCode).toBe(status);
      check(res.json().detail);
      expect(await customDirs()).toEqual([]);
      expect(await stagingLeftovers()).toEqual([]);
    });
  });

  describe("POST /api/skills/upload", () => {
    it("installs an uploaded archive", async () => {
      const res = await upload([{ field: "file", filename: "pdf-tools.skill", data: skillArchive("pdf-tools") }]);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        success: true,
        skill_name: "pdf-tools",
        message: "Skill 'pdf-tools' installed successfully for user 'default'",
      });
      expect(await stagingLeftovers()).toEqual([]);
    });

    it("answers 409 for an existing skill", async () => {
      await upload([{ filename: "a.skill", data: skillArchive("twice") }]);
      const res = await upload([{ filename: "b.skill", data: skillArchive("twice") }]);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ detail: "Skill 'twice' already exists" });
    });

    it.each(HOSTILE)("rejects a %s archive", async (_l, archive, status, check) => {
      const res = await upload([{ filename: "h.skill", data: archive() }]);
      expect(res.statusCode).toBe(status);
      check(res.json().detail);
      expect(await customDirs()).toEqual([]);
      expect(await stagingLeftovers()).toEqual([]);
    });

    it("refuses another extension, two files, no file and a non-multipart body", async () => {
      expect((await upload([{ filename: "a.zip", data: skillArchive("z") }])).json()).toEqual({
        detail: "File must have .skill extension",
      });
      const two = await upload([
        { filename: "a.skill", data: skillArchive("a") },
        { filename: "b.skill", data: skillArchive("b") },
      ]);
      expect(two.statusCode).toBe(400);
      expect(two.json()).toEqual({ detail: "Upload exactly one .skill file." });
      expect((await upload([])).json()).toEqual({ detail: "No files were uploaded." });
      const json = await fx.app.inject({
        method: "POST",
        url: "/api/skills/upload",
        headers: admin,
        payload: { file: "x" },
      });
      expect(json.statusCode).toBe(415);
      expect(await customDirs()).toEqual([]);
      expect(await stagingLeftovers()).toEqual([]);
    });

    it("answers a non-admin 403 without reading the upload", async () => {
      const res = await upload([{ filename: "a.skill", data: skillArchive("a") }], user);
      expect(res.statusCode).toBe(403);
      expect(await customDirs()).toEqual([]);
    });

    it("answers an archive over maxArchiveBytes with 413 and leaves nothing", async () => {
      await fx.close();
      fx = await createFixture({ maxArchiveBytes: 1000 });
      const res = await upload([
        { filename: "big.skill", data: skillArchive("big", { "references/a.md": randomBytes(4000).toString("hex") }) },
      ]);
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({ detail: 'File too large: "big.skill" exceeds the 1000-byte limit.' });
      expect(await customDirs()).toEqual([]);
      expect(await stagingLeftovers()).toEqual([]);
    });
  });
});
