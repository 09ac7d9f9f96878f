import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AUTH_SECRET_FILE, loadAuthSecret } from "./auth-secret.js";

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "auth-secret-"));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe("loadAuthSecret", () => {
  it("prefers AUTH_JWT_SECRET and writes nothing", async () => {
    const dir = await tempDir();
    const secret = "e".repeat(40);
    expect(await loadAuthSecret({ AUTH_JWT_SECRET: secret }, dir)).toEqual({ secret, source: "environment" });
    await expect(stat(path.join(dir, AUTH_SECRET_FILE))).rejects.toThrow();
  });

  it("refuses a short AUTH_JWT_SECRET", async () => {
    await expect(loadAuthSecret({ AUTH_JWT_SECRET: "short" }, await tempDir())).rejects.toThrow(/at least 32 bytes/);
  });

  it("generates a secret once (0600) and reads it back after a restart", async () => {
    const dir = path.join(await tempDir(), "data");
    const first = await loadAuthSecret({}, dir);
    expect(first.source).toBe("generated");
    expect((await stat(path.join(dir, AUTH_SECRET_FILE))).mode & 0o777).toBe(0o600);
    expect(await loadAuthSecret({}, dir)).toEqual({ secret: first.secret, source: "file" });
  });

  it("gives concurrent first starts the same secret", async () => {
    const dir = await tempDir();
    const results = await Promise.all(Array.from({ length: 8 }, () => loadAuthSecret({}, dir)));
    expect(new Set(results.map((r) => r.secret)).size).toBe(1);
    expect((await readFile(path.join(dir, AUTH_SECRET_FILE), "utf8")).trim()).toBe(results[0]?.secret);
  });

  it("refuses a secret file that holds too little", async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, AUTH_SECRET_FILE), "tiny\n");
    await expect(loadAuthSecret({}, dir)).rejects.toThrow(/shorter than 32 bytes/);
  });
});
