import { mkdir, symlink, writeFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ADMIN_KEY, USER_KEY, createFixture, putThreadFile, type Fixture } from "../../test/support/fixture.js";
import { skillArchive, skillMd } from "../../test/support/zip.js";

const admin = { "x-api-key": ADMIN_KEY };
const user = { "x-api-key": USER_KEY };
const TRAVERSAL = { detail: "Access denied: path traversal detected" };

describe("skill files routes", () => {
  let fx: Fixture;
  afterEach(async () => {
    await fx.close();
  });

  function publicDir(name: string): string {
    return path.join(fx.skillsRoot, "public", name);
  }

  async function put(name: string, rel: string, data: string | Buffer): Promise<void> {
    const file = path.join(publicDir(name), rel);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, data);
  }

  describe("GET /api/skills/:skill_name/files", () => {
    it("lists regular files sorted by relative path, for a non-admin user", async () => {
      fx = await createFixture({ auth: true });
      await put("deep-research", "scripts/run.py", "print(1)\n");
      await put("deep-research", "references/a-b.md", "ab");
      await put("deep-research", "references/a/z.md", "z");
      await mkdir(path.join(publicDir("deep-research"), "empty"), { recursive: true });
      const res = await fx.app.inject({ url: "/api/skills/deep-research/files", headers: user });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        files: [
          { path: "SKILL.md", size: Buffer.byteLength(skillMd("deep-research")) },
          { path: "references/a-b.md", size: 2 },
          { path: "references/a/z.md", size: 1 },
          { path: "scripts/run.py", size: 9 },
        ],
        truncated: false,
      });
    });

    it("skips symlinks, including ones leading out of the skill", async () => {
      fx = await createFixture();
      await writeFile(path.join(fx.dir, "secret.txt"), "secret");
      await symlink(path.join(fx.dir, "secret.txt"), path.join(publicDir("deep-research"), "leak.txt"));
      await symlink(fx.dir, path.join(publicDir("deep-research"), "outside"));
      await symlink("SKILL.md", path.join(publicDir("deep-research"), "alias.md"));
      const res = await fx.app.inject({ url: "/api/skills/deep-research/files" });
      expect(res.json().files.map((f: { path: string }) => f.path)).toEqual(["SKILL.md"]);
    });

    it("lists at most 1,000 files and says so", async () => {
      fx = await createFixture();
      for (let i = 0; i < 1005; i++) await put("deep-research", `data/f${String(i).padStart(4, "0")}.txt`, "x");
      const body = (await fx.app.inject({ url: "/api/skills/deep-research/files" })).json() as {
        files: Array<{ path: string }>;
        truncated: boolean;
      };
      expect(body.files).toHaveLength(1000);
      expect(body.truncated).toBe(true);
      expect(body.files[0]?.path).toBe("SKILL.md");
      expect(body.files[999]?.path).toBe("data/f0998.txt");
    });

    it("lists the effective (custom) skill's directory", async () => {
      fx = await createFixture({ auth: true });
      await putThreadFile(fx, "t1", "outputs/mine.skill", skillArchive("mine"));
      expect(
        (
          await fx.app.inject({
            method: "POST",
            url: "/api/skills/install",
            headers: admin,
            payload: { thread_id: "t1", path: "/mnt/user-data/outputs/mine.skill" },
          })
        ).statusCode,
      ).toBe(200);
      const res = await fx.app.inject({ url: "/api/skills/mine/files", headers: user });
      expect(res.statusCode).toBe(200);
      expect(res.json().files.map((f: { path: string }) => f.path)).toContain("SKILL.md");
    });

    it("answers 404 for an unknown skill", async () => {
      fx = await createFixture();
      const res = await fx.app.inject({ url: "/api/skills/nope/files" });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: "Skill 'nope' not found" });
    });

    it("needs a key when authentication is on", async () => {
      fx = await createFixture({ auth: true });
      expect((await fx.app.inject({ url: "/api/skills/deep-research/files" })).statusCode).toBe(401);
      expect((await fx.app.inject({ url: "/api/skills/deep-research/files/SKILL.md" })).statusCode).toBe(401);
    });
  });

  describe("GET /api/skills/:skill_name/files/*", () => {
    it("serves SKILL.md of a built-in skill as UTF-8 text to a non-admin user", async () => {
      fx = await createFixture({ auth: true });
      const res = await fx.app.inject({ url: "/api/skills/deep-research/files/SKILL.md", headers: user });
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toBe("text/plain; charset=utf-8");
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.body).toBe(skillMd("deep-research"));
    });

    it("serves nested files, including non-ASCII text and names", async () => {
      fx = await createFixture();
      await put("deep-research", "scripts/héllo wörld.py", "print('héllo')\n");
      const res = await fx.app.inject({
        url: `/api/skills/deep-research/files/scripts/${encodeURIComponent("héllo wörld.py")}`,
      });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe("print('héllo')\n");
    });

    it("answers 404 for a missing file, a directory and an unknown skill", async () => {
      fx = await createFixture();
      await put("deep-research", "scripts/run.py", "x");
      for (const p of ["nope.md", "scripts", "scripts/"]) {
        const res = await fx.app.inject({ url: `/api/skills/deep-research/files/${p}` });
        expect(res.statusCode, p).toBe(404);
      }
      expect((await fx.app.inject({ url: "/api/skills/deep-research/files/nope.md" })).json()).toEqual({
        detail: "File 'nope.md' not found in skill 'deep-research'",
      });
      expect((await fx.app.inject({ url: "/api/skills/nope/files/SKILL.md" })).json()).toEqual({
        detail: "Skill 'nope' not found",
      });
    });

    it.each([
      ["..%2fdata-analysis%2fSKILL.md"],
      ["scripts%2f..%2f..%2fdata-analysis%2fSKILL.md"],
      ["%2e%2e%2fdata-analysis%2fSKILL.md"],
      ["%2E%2E%2Fdata-analysis%2FSKILL.md"],
      ["%252e%252e%252fdata-analysis%252fSKILL.md"],
      ["..%5cdata-analysis%5cSKILL.md"],
      ["%2fetc%2fpasswd"],
      ["/etc/passwd"],
      ["C:%5cWindows%5cwin.ini"],
      ["SKILL.md%00.txt"],
    ])("refuses %s with 403", async (p) => {
      fx = await createFixture();
      const res = await fx.app.inject({ url: `/api/skills/deep-research/files/${p}` });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(TRAVERSAL);
    });

    it("refuses a literal ../ sent over a raw socket (no URL normalization)", async () => {
      fx = await createFixture();
      const address = await fx.app.listen({ host: "127.0.0.1", port: 0 });
      const { port } = new URL(address);
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(Number(port), "127.0.0.1", () => {
          socket.write(
            "GET /api/skills/deep-research/files/scripts/../../data-analysis/SKILL.md HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
          );
        });
        let data = "";
        socket.on("data", (chunk: Buffer) => (data += chunk.toString("utf8")));
        socket.on("end", () => resolve(data));
        socket.on("error", reject);
      });
      expect(answer.split("\r\n")[0]).toBe("HTTP/1.1 403 Forbidden");
      expect(answer).toContain(TRAVERSAL.detail);
    });

    it("refuses symlinks leading out of the skill directory", async () => {
      fx = await createFixture();
      await writeFile(path.join(fx.dir, "secret.txt"), "secret");
      await symlink(path.join(fx.dir, "secret.txt"), path.join(publicDir("deep-research"), "leak.txt"));
      await symlink(fx.dir, path.join(publicDir("deep-research"), "outside"));
      await symlink(publicDir("data-analysis"), path.join(publicDir("deep-research"), "sibling"));
      for (const p of ["leak.txt", "outside/secret.txt", "sibling/SKILL.md"]) {
        const res = await fx.app.inject({ url: `/api/skills/deep-research/files/${p}` });
        expect(res.statusCode, p).toBe(403);
        expect(res.body).not.toContain("secret");
        expect(res.body).not.toContain(fx.dir);
      }
    });

    it("answers 413 over 1 MiB and serves exactly 1 MiB", async () => {
      fx = await createFixture();
      await put("deep-research", "big.txt", "a".repeat(1024 * 1024 + 1));
      await put("deep-research", "max.txt", "a".repeat(1024 * 1024));
      const big = await fx.app.inject({ url: "/api/skills/deep-research/files/big.txt" });
      expect(big.statusCode).toBe(413);
      expect((await fx.app.inject({ url: "/api/skills/deep-research/files/max.txt" })).statusCode).toBe(200);
    });

    it("answers 415 for a binary file", async () => {
      fx = await createFixture();
      await put("deep-research", "assets/logo.png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
      const res = await fx.app.inject({ url: "/api/skills/deep-research/files/assets/logo.png" });
      expect(res.statusCode).toBe(415);
      expect(res.json()).toEqual({ detail: "File 'assets/logo.png' is binary" });
    });
  });
});
