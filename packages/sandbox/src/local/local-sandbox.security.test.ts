import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SandboxError } from "../errors.js";
import type { LocalSandbox } from "./local-sandbox.js";
import { createFixture, expectCode, type Fixture } from "../../test/support/local/thread-fixture.js";

const WS = "/mnt/user-data/workspace";
let fx: Fixture;

beforeEach(async () => {
  fx = await createFixture();
});

afterEach(async () => {
  await fs.rm(fx.tmp, { recursive: true, force: true });
});

/** Every file operation on `p`, as thunks. */
function everyOperation(sandbox: LocalSandbox, p: string): Array<[string, () => Promise<unknown>]> {
  return [
    ["readFile", () => sandbox.readFile(p)],
    ["readBytes", () => sandbox.readBytes(p)],
    ["writeFile", () => sandbox.writeFile(p, "x")],
    ["append", () => sandbox.writeFile(p, "x", { append: true })],
    ["writeBytes", () => sandbox.writeBytes(p, new Uint8Array([1]))],
    ["listDir", () => sandbox.listDir(p)],
    ["glob", () => sandbox.glob(p, "*")],
    ["grep", () => sandbox.grep(p, "x")],
  ];
}

describe("LocalSandbox path traversal", () => {
  it.each([
    `${WS}/../../etc/passwd`,
    `${WS}/a/../../../etc`,
    `${WS}/..\\..\\etc\\passwd`,
    "/mnt/user-data/../../etc/passwd",
    "/mnt/skills/../../etc/passwd",
    "../etc/passwd",
  ])("refuses %s in every operation with PATH_ESCAPE", async (p) => {
    for (const [, call] of everyOperation(fx.sandbox, p)) {
      const err = await expectCode(call(), "PATH_ESCAPE");
      expect(err.message).toBe("Access denied: path traversal detected");
    }
  });

  it("treats encoded dots as a literal name inside the mount", async () => {
    await fx.sandbox.writeFile(`${WS}/%2e%2e/x.txt`, "literal");
    expect(await fs.readFile(path.join(fx.workspace, "%2e%2e", "x.txt"), "utf8")).toBe("literal");
    await expect(fs.access(path.join(path.dirname(fx.workspace), "x.txt"))).rejects.toThrow();
  });

  it("refuses a sibling that only shares the mount's prefix", async () => {
    for (const [, call] of everyOperation(fx.sandbox, "/mnt/user-data/workspace-extra/a.txt")) {
      const err = await expectCode(call(), "PATH_NOT_ALLOWED");
      expect(err.message).toBe("Only paths under /mnt/user-data/, /mnt/skills/, or configured mount paths are allowed");
    }
  });

  it.each(["/etc/passwd", "/tmp/x", "/mnt/other/x", "relative.txt", "/mnt/user-data/file.txt"])(
    "refuses %s outside the mounts",
    async (p) => {
      await expectCode(fx.sandbox.readFile(p), "PATH_NOT_ALLOWED");
      await expectCode(fx.sandbox.writeFile(p, "x"), "PATH_NOT_ALLOWED");
    },
  );
});

describe("LocalSandbox symlink escapes", () => {
  const links: Array<[string, (f: Fixture) => string]> = [
    ["/etc", () => "/etc"],
    ["another thread's folder", (f) => f.otherThread],
    ["an outside folder, relatively", (f) => path.relative(f.workspace, f.outside)],
  ];

  it.each(links)("refuses reads, writes and listings through a link to %s", async (_, target) => {
    await fs.symlink(target(fx), path.join(fx.workspace, "link"));
    for (const [name, call] of everyOperation(fx.sandbox, `${WS}/link/secret.txt`)) {
      if (name === "listDir" || name === "glob") continue;
      const err = await expectCode(call(), "PATH_ESCAPE");
      expect(err.message).toBe("Access denied: path escapes mounted directory");
    }
    await expectCode(fx.sandbox.listDir(`${WS}/link`), "PATH_ESCAPE");
    await expectCode(fx.sandbox.glob(`${WS}/link`, "*"), "PATH_ESCAPE");
    await expectCode(fx.sandbox.grep(`${WS}/link`, "needle"), "PATH_ESCAPE");
  });

  it.each(links)("skips a link to %s when listing, globbing and grepping the workspace", async (_, target) => {
    await fs.symlink(target(fx), path.join(fx.workspace, "link"));
    await fs.writeFile(path.join(fx.workspace, "own.txt"), "needle: mine\n");
    expect(await fx.sandbox.listDir(WS, { maxDepth: 3 })).toEqual([`${WS}/own.txt`]);
    expect((await fx.sandbox.glob(WS, "**", { includeDirs: true })).matches).toEqual([`${WS}/own.txt`]);
    expect((await fx.sandbox.grep(WS, "needle")).matches.map((m) => m.path)).toEqual([`${WS}/own.txt`]);
  });

  it("refuses a file symlink to another thread's secret", async () => {
    await fs.symlink(path.join(fx.otherThread, "secret.txt"), path.join(fx.workspace, "peek.txt"));
    await expectCode(fx.sandbox.readFile(`${WS}/peek.txt`), "PATH_ESCAPE");
    await expectCode(fx.sandbox.writeFile(`${WS}/peek.txt`, "overwrite"), "PATH_ESCAPE");
    await expectCode(fx.sandbox.writeFile(`${WS}/peek.txt`, "append", { append: true }), "PATH_ESCAPE");
    expect(await fs.readFile(path.join(fx.otherThread, "secret.txt"), "utf8")).toBe("needle: other thread secret\n");
  });

  it("refuses a dangling link that would create a file outside", async () => {
    const target = path.join(fx.outside, "planted.txt");
    await fs.symlink(target, path.join(fx.workspace, "trap.txt"));
    await expectCode(fx.sandbox.writeFile(`${WS}/trap.txt`, "x"), "PATH_ESCAPE");
    await expectCode(fx.sandbox.writeFile(`${WS}/trap.txt`, "x", { append: true }), "PATH_ESCAPE");
    await expect(fs.access(target)).rejects.toThrow();
  });

  it("refuses a link from the workspace into the read-only skills folder", async () => {
    await fs.symlink(fx.skills, path.join(fx.workspace, "skills-link"));
    await expectCode(fx.sandbox.writeFile(`${WS}/skills-link/public/pdf/SKILL.md`, "tampered"), "PATH_ESCAPE");
    expect(await fs.readFile(path.join(fx.skills, "public", "pdf", "SKILL.md"), "utf8")).toBe("# PDF skill\n");
  });

  it("follows links that stay inside the mount", async () => {
    await fs.writeFile(path.join(fx.workspace, "real.txt"), "content");
    await fs.symlink("real.txt", path.join(fx.workspace, "alias.txt"));
    expect(await fx.sandbox.readFile(`${WS}/alias.txt`)).toBe("content");
    await fx.sandbox.writeFile(`${WS}/alias.txt`, "updated");
    expect(await fs.readFile(path.join(fx.workspace, "real.txt"), "utf8")).toBe("updated");
    expect(await fx.sandbox.listDir(WS)).toEqual([`${WS}/alias.txt`, `${WS}/real.txt`]);
  });
});

describe("LocalSandbox read-only mounts", () => {
  it("refuses every write to /mnt/skills with READ_ONLY", async () => {
    for (const p of ["/mnt/skills/new.txt", "/mnt/skills/public/pdf/SKILL.md", "/mnt/skills"]) {
      const err = await expectCode(fx.sandbox.writeFile(p, "x"), "READ_ONLY");
      expect(err.message).toBe(`Read-only file system: ${p}`);
      await expectCode(fx.sandbox.writeFile(p, "x", { append: true }), "READ_ONLY");
      await expectCode(fx.sandbox.writeBytes(p, new Uint8Array([1])), "READ_ONLY");
    }
    expect(await fs.readdir(fx.skills)).toEqual(["public"]);
  });

  it("still reads and lists /mnt/skills", async () => {
    expect(await fx.sandbox.readFile("/mnt/skills/public/pdf/SKILL.md")).toBe("# PDF skill\n");
    expect(await fx.sandbox.listDir("/mnt/skills")).toEqual(["/mnt/skills/public/", "/mnt/skills/public/pdf/"]);
  });
});

describe("LocalSandbox host path hiding", () => {
  it("never names a host path in errors or results", async () => {
    await fs.symlink("/etc", path.join(fx.workspace, "etc"));
    await fs.writeFile(path.join(fx.workspace, "f.txt"), "needle\n");
    await fs.mkdir(path.join(fx.workspace, "d"));
    const calls: Array<() => Promise<unknown>> = [
      () => fx.sandbox.readFile(`${WS}/missing.txt`),
      () => fx.sandbox.readFile(`${WS}/d`),
      () => fx.sandbox.readFile(`${WS}/etc/passwd`),
      () => fx.sandbox.writeFile(`${WS}/f.txt/x`, "x"),
      () => fx.sandbox.writeFile(`${WS}/d`, "x"),
      () => fx.sandbox.listDir(`${WS}/missing`),
      () => fx.sandbox.listDir(`${WS}/f.txt`),
      () => fx.sandbox.glob(`${WS}/missing`, "*"),
      () => fx.sandbox.grep(`${WS}/missing`, "x"),
      () => fx.sandbox.readBytes(`${WS}/missing`),
      () => fx.sandbox.execute("true", { cwd: `${WS}/missing` }),
      async () => {
        throw new Error(
          JSON.stringify([
            await fx.sandbox.listDir(WS),
            await fx.sandbox.glob(WS, "**"),
            await fx.sandbox.grep(WS, "needle"),
          ]),
        );
      },
    ];
    for (const call of calls) {
      const err = await call().then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(err).toBeInstanceOf(Error);
      expect(err?.message).not.toContain(fx.tmp);
      if (SandboxError.isInstance(err)) {
        expect(err.path ?? "").not.toContain(fx.tmp);
        expect(err.cause).toBeUndefined();
      }
    }
  });
});
