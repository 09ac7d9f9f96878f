/**
 * Previewing files inside `.skill` archives through the artifacts route, over
 * a real socket, with hostile archives and paths.
 */
import { mkdir, readdir } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_KEY, USER_KEY, putThreadFile, type Fixture } from "../support/fixture.js";
import { listenFixture, rawRequest, type SocketFixture } from "../support/socket.js";
import { buildZip, skillArchive, skillMd } from "../support/zip.js";

const user = { "x-api-key": USER_KEY };
const MiB = 1024 * 1024;

describe(".skill archive previews over a socket", () => {
  let sock: SocketFixture;
  let fx: Fixture;

  beforeAll(async () => {
    sock = await listenFixture({ auth: true });
    fx = sock.fx;
    await putThreadFile(
      fx,
      "sk",
      "outputs/pdf-tools.skill",
      skillArchive("pdf-tools", { "scripts/run.py": "print('pdf')\n", LICENSE: "MIT\n" }),
      "alice",
    );
    await putThreadFile(
      fx,
      "sk",
      "outputs/flat.skill",
      buildZip([{ name: "SKILL.md", data: skillMd("flat") }]),
      "alice",
    );
  });
  afterAll(async () => {
    await fx.close();
  });

  const artifact = (rel: string) => `/api/threads/sk/artifacts/mnt/user-data/${rel}`;
  const get = (rel: string, headers: Record<string, string> = {}) =>
    fetch(sock.url(artifact(rel)), { headers: { ...user, ...headers } });

  it("serves SKILL.md from an archive with a root folder, as DeerFlow does", async () => {
    const res = await get("outputs/pdf-tools.skill/SKILL.md");
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(skillMd("pdf-tools"));
    expect(res.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("private, max-age=300");
    expect(res.headers.get("content-disposition")).toBe(`inline; filename="SKILL.md"; filename*=UTF-8''SKILL.md`);
    expect(res.headers.get("accept-ranges")).toBe("bytes");
  });

  it("serves nested members, flat archives, and text without an extension as text/plain", async () => {
    expect(await (await get("outputs/pdf-tools.skill/scripts/run.py")).text()).toBe("print('pdf')\n");
    expect(await (await get("outputs/pdf-tools.skill/pdf-tools/scripts/run.py")).text()).toBe("print('pdf')\n");
    expect(await (await get("outputs/flat.skill/SKILL.md")).text()).toBe(skillMd("flat"));
    const license = await get("outputs/pdf-tools.skill/LICENSE");
    expect(license.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await license.text()).toBe("MIT\n");
  });

  it("previews an uploaded archive and honours Range and ?download on members", async () => {
    const form = new FormData();
    form.append("files", new Blob([skillArchive("uploaded")]), "uploaded.skill");
    const up = await fetch(sock.url("/api/threads/sk/uploads"), { method: "POST", body: form, headers: user });
    expect(up.status).toBe(200);
    const ranged = await get("uploads/uploaded.skill/SKILL.md", { range: "bytes=0-2" });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get("content-range")).toBe(`bytes 0-2/${Buffer.byteLength(skillMd("uploaded"))}`);
    expect(await ranged.text()).toBe("---");
    const download = await get("uploads/uploaded.skill/SKILL.md?download=true");
    expect(download.headers.get("content-disposition")).toMatch(/^attachment; filename="SKILL.md"/);
  });

  it("answers a missing member and a missing archive with 404", async () => {
    const member = await get("outputs/pdf-tools.skill/nope.md");
    expect(member.status).toBe(404);
    expect(await member.json()).toEqual({ detail: "File 'nope.md' not found in skill archive" });
    const archive = await get("outputs/none.skill/SKILL.md");
    expect(archive.status).toBe(404);
    expect(await archive.json()).toEqual({ detail: "Skill file not found: /mnt/user-data/outputs/none.skill" });
  });

  it.each([
    "/api/threads/sk/artifacts/mnt/user-data/outputs/pdf-tools.skill/../../../../../etc/passwd",
    "/api/threads/sk/artifacts/mnt/user-data/outputs/pdf-tools.skill/%2e%2e/%2e%2e/secret",
    "/api/threads/sk/artifacts/mnt/user-data/outputs/pdf-tools.skill/..%5c..%5csecret",
  ])("refuses the traversal %s with 403", async (raw) => {
    const res = await rawRequest(sock.base, raw, user);
    expect(res.status).toBe(403);
    expect(JSON.parse(res.text)).toEqual({ detail: "Access denied: path traversal detected" });
  });

  it("refuses a member path that is unsafe in an archive", async () => {
    const res = await get("outputs/pdf-tools.skill/C:x");
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ detail: "Invalid archive member path: 'C:x'" });
  });

  it.each([
    ["a traversal member", "../evil.txt"],
    ["an absolute member", "/etc/passwd"],
    ["a drive-qualified member", "C:\\evil.txt"],
    ["a member with an NTFS stream", "SKILL.md:evil"],
  ])("refuses a whole archive holding %s, as an install would", async (_label, hostile) => {
    await putThreadFile(
      fx,
      "sk",
      "outputs/hostile.skill",
      buildZip([
        { name: "SKILL.md", data: skillMd("hostile") },
        { name: hostile, data: "pwned" },
      ]),
      "alice",
    );
    const res = await get("outputs/hostile.skill/SKILL.md");
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ detail: `Archive contains unsafe member path: '${hostile}'` });
  });

  it("never serves a symlink member or a directory entry", async () => {
    await putThreadFile(
      fx,
      "sk",
      "outputs/links.skill",
      buildZip([
        { name: "SKILL.md", data: skillMd("links") },
        { name: "passwd", data: "/etc/passwd", symlink: true },
        { name: "assets/", data: "" },
      ]),
      "alice",
    );
    for (const member of ["passwd", "assets"]) {
      const res = await get(`outputs/links.skill/${member}`);
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain("root:");
    }
  });

  it("answers a member over 16 MiB with 413 without reading it", async () => {
    await putThreadFile(
      fx,
      "sk",
      "outputs/big.skill",
      buildZip([
        { name: "SKILL.md", data: skillMd("big") },
        { name: "assets/huge.bin", data: Buffer.alloc(16 * MiB + 1), deflate: true },
      ]),
      "alice",
    );
    const res = await get("outputs/big.skill/assets/huge.bin");
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ detail: "Skill archive member is too large to preview" });
    expect((await get("outputs/big.skill/SKILL.md")).status).toBe(200);
  });

  it("bounds a zip bomb whose sizes are forged", async () => {
    // 64 MiB of zeros deflate to about 64 KB; the headers claim 100 bytes.
    const bomb = buildZip([{ name: "SKILL.md", data: Buffer.alloc(64 * MiB), deflate: true, declaredSize: 100 }]);
    expect(bomb.length).toBeLessThan(MiB);
    await putThreadFile(fx, "sk", "outputs/bomb.skill", bomb, "alice");
    const res = await get("outputs/bomb.skill/SKILL.md");
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ detail: "Skill archive member is too large to preview" });
  });

  it("answers a file that is not a zip with 400 and leaves no private copy behind", async () => {
    await putThreadFile(fx, "sk", "outputs/fake.skill", "not a zip at all", "alice");
    const res = await get("outputs/fake.skill/SKILL.md");
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ detail: "File is not a valid ZIP archive" });
    expect((await readdir(fx.dir)).filter((n) => n.startsWith("deerflow-gateway-skill-"))).toEqual([]);
  });

  it("serves a real file under a folder that merely ends in .skill", async () => {
    await mkdir(path.join(fx.userData("sk", "alice"), "outputs", "draft.skill"), { recursive: true });
    await putThreadFile(fx, "sk", "outputs/draft.skill/SKILL.md", "# draft\n", "alice");
    const res = await get("outputs/draft.skill/SKILL.md");
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("# draft\n");
  });

  it("does not preview another user's archive", async () => {
    const res = await fetch(sock.url(artifact("outputs/pdf-tools.skill/SKILL.md")));
    expect(res.status).toBe(401);
    await putThreadFile(fx, "mine", "outputs/x.skill", skillArchive("x"), "alice");
    const other = await fetch(sock.url("/api/threads/mine/artifacts/mnt/user-data/outputs/x.skill/SKILL.md"), {
      headers: { "x-api-key": ADMIN_KEY },
    });
    expect(other.status).toBe(404);
  });
});
