import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SandboxError } from "../errors.js";
import {
  LocalSandboxProvider,
  type LocalSandboxProviderOptions,
  type RunnerContext,
} from "./local-sandbox-provider.js";
import { RecordingRunner, expectCode } from "../../test/support/local/thread-fixture.js";

let tmp: string;
let baseDir: string;
let skillsDir: string;
const runner = new RecordingRunner();

beforeEach(async () => {
  tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "sandbox-provider-")));
  baseDir = path.join(tmp, "base");
  skillsDir = path.join(tmp, "skills");
  await fs.mkdir(path.join(skillsDir, "public", "pdf"), { recursive: true });
  await fs.writeFile(path.join(skillsDir, "public", "pdf", "SKILL.md"), "# PDF\n");
});

afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

function provider(options: Partial<LocalSandboxProviderOptions> = {}): LocalSandboxProvider {
  return new LocalSandboxProvider({ baseDir, skillsDir, runner, ...options } as LocalSandboxProviderOptions);
}

describe("LocalSandboxProvider.acquire", () => {
  it("creates the thread folders and names the sandbox local:<user>:<thread>", async () => {
    const sandbox = await provider().acquire("t1", "alice");
    expect(sandbox.id).toBe("local:alice:t1");
    const userData = path.join(baseDir, "users", "alice", "threads", "t1", "user-data");
    expect((await fs.readdir(userData)).sort()).toEqual(["outputs", "uploads", "workspace"]);
  });

  it("uses the default user when none is given", async () => {
    expect((await provider().acquire("t1")).id).toBe("local:default:t1");
  });

  it("mounts the thread folders read-write and the skills read-only", async () => {
    const sandbox = await provider().acquire("t1");
    expect(sandbox.mounts.map((m) => [m.virtualPath, m.readOnly])).toEqual([
      ["/mnt/user-data/workspace", false],
      ["/mnt/user-data/uploads", false],
      ["/mnt/user-data/outputs", false],
      ["/mnt/skills", true],
    ]);
    await sandbox.writeFile("/mnt/user-data/workspace/a.txt", "a");
    expect(await sandbox.readFile("/mnt/skills/public/pdf/SKILL.md")).toBe("# PDF\n");
    await expectCode(sandbox.writeFile("/mnt/skills/public/pdf/SKILL.md", "x"), "READ_ONLY");
    expect(
      await fs.readFile(
        path.join(baseDir, "users", "default", "threads", "t1", "user-data", "workspace", "a.txt"),
        "utf8",
      ),
    ).toBe("a");
  });

  it("mounts each user's own skills folders read-only under /mnt/skills/<category>", async () => {
    const customOf = (user: string) => path.join(baseDir, "users", user, "skills", "custom");
    await fs.mkdir(path.join(customOf("alice"), "mine"), { recursive: true });
    await fs.writeFile(path.join(customOf("alice"), "mine", "SKILL.md"), "# Alice's\n");
    const p = new LocalSandboxProvider({
      baseDir,
      runner,
      userSkillsMounts: (user) => [
        { category: "public", hostPath: path.join(skillsDir, "public") },
        { category: "custom", hostPath: customOf(user) },
      ],
    });
    const alice = await p.acquire("t1", "alice");
    const bob = await p.acquire("t1", "bob");
    expect(bob.mounts.filter((m) => m.virtualPath.startsWith("/mnt/skills"))).toEqual([
      { virtualPath: "/mnt/skills/public", hostPath: path.join(skillsDir, "public"), readOnly: true },
      { virtualPath: "/mnt/skills/custom", hostPath: customOf("bob"), readOnly: true },
    ]);
    expect(await alice.readFile("/mnt/skills/custom/mine/SKILL.md")).toBe("# Alice's\n");
    expect(await bob.readFile("/mnt/skills/public/pdf/SKILL.md")).toBe("# PDF\n");
    await expectCode(bob.readFile("/mnt/skills/custom/mine/SKILL.md"), "NOT_FOUND");
    await expectCode(bob.readFile("/mnt/skills/custom/../../users/alice/skills/custom/mine/SKILL.md"), "PATH_ESCAPE");
    await expectCode(alice.writeFile("/mnt/skills/custom/mine/SKILL.md", "x"), "READ_ONLY");
    // bob's (missing) custom folder was created so the mount exists.
    expect((await fs.stat(customOf("bob"))).isDirectory()).toBe(true);
  });

  it("refuses skillsDir with userSkillsMounts, and a category that is not a plain folder name", async () => {
    expect(() => provider({ userSkillsMounts: () => [] })).toThrow(SandboxError);
    const p = new LocalSandboxProvider({
      baseDir,
      runner,
      userSkillsMounts: () => [{ category: "../user-data", hostPath: skillsDir }],
    });
    await expectCode(p.acquire("t1", "alice"), "CONFIG_INVALID");
  });

  it("mounts no skills without a skills folder", async () => {
    const sandbox = await new LocalSandboxProvider({ baseDir, runner }).acquire("t1");
    expect(sandbox.mounts.map((m) => m.virtualPath)).not.toContain("/mnt/skills");
    await expectCode(sandbox.readFile("/mnt/skills/public/pdf/SKILL.md"), "PATH_NOT_ALLOWED");
  });

  it("adds validated extra mounts", async () => {
    const data = path.join(tmp, "data");
    await fs.mkdir(data);
    await fs.writeFile(path.join(data, "d.csv"), "a,b\n");
    const sandbox = await provider({ mounts: [{ virtualPath: "/mnt/data", hostPath: data, readOnly: true }] }).acquire(
      "t1",
    );
    expect(await sandbox.readFile("/mnt/data/d.csv")).toBe("a,b\n");
    await expectCode(sandbox.writeFile("/mnt/data/new.csv", "x"), "READ_ONLY");
  });

  it.each(["../etc", "a/b", ".", "..", "", "a:b"])("rejects the thread id %j", async (threadId) => {
    await expectCode(provider().acquire(threadId), "INVALID_ARGUMENT");
    await expect(fs.readdir(path.join(baseDir, "users"))).rejects.toThrow();
  });

  it.each(["../x", "a/b", ".."])("rejects the user id %j", async (userId) => {
    await expectCode(provider().acquire("t1", userId), "INVALID_ARGUMENT");
  });

  it("returns one instance to concurrent callers and creates the folders once", async () => {
    const p = provider();
    const mkdir = vi.spyOn(fs, "mkdir");
    const sandboxes = await Promise.all(Array.from({ length: 10 }, () => p.acquire("t1", "bob")));
    expect(new Set(sandboxes).size).toBe(1);
    expect(mkdir).toHaveBeenCalledTimes(3);
    mkdir.mockRestore();
    expect(await p.acquire("t1", "bob")).toBe(sandboxes[0]);
  });

  it("keeps threads and users apart", async () => {
    const p = provider();
    const a = await p.acquire("t1", "alice");
    const b = await p.acquire("t1", "bob");
    expect(a).not.toBe(b);
    await a.writeFile("/mnt/user-data/workspace/secret.txt", "alice only");
    await expectCode(b.readFile("/mnt/user-data/workspace/secret.txt"), "NOT_FOUND");
  });

  it("refuses a symlink from one thread's workspace into another's", async () => {
    const p = provider();
    const victim = await p.acquire("victim");
    const attacker = await p.acquire("attacker");
    await victim.writeFile("/mnt/user-data/workspace/secret.txt", "needle");
    const attackerWs = p.threadPaths("attacker").workspace;
    await fs.symlink(p.threadPaths("victim").workspace, path.join(attackerWs, "peek"));
    await expectCode(attacker.readFile("/mnt/user-data/workspace/peek/secret.txt"), "PATH_ESCAPE");
    expect((await attacker.grep("/mnt/user-data/workspace", "needle")).matches).toEqual([]);
    expect(await attacker.listDir("/mnt/user-data/workspace")).toEqual([]);
  });

  it("builds each sandbox's runner with the factory", async () => {
    const contexts: RunnerContext[] = [];
    const p = new LocalSandboxProvider({
      baseDir,
      runnerFactory: (context) => {
        contexts.push(context);
        return new RecordingRunner();
      },
    });
    await p.acquire("t9", "carol");
    expect(contexts).toHaveLength(1);
    expect(contexts[0]).toMatchObject({ sandboxId: "local:carol:t9", userId: "carol", threadId: "t9" });
    expect(contexts[0]?.mounts.map((m) => m.virtualPath)).toContain("/mnt/user-data/workspace");
  });
});

describe("LocalSandboxProvider cache", () => {
  it("get returns acquired sandboxes and undefined for unknown ids", async () => {
    const p = provider();
    const sandbox = await p.acquire("t1");
    expect(p.get("local:default:t1")).toBe(sandbox);
    expect(p.get("local:default:t2")).toBeUndefined();
  });

  it("evicts the least recently used sandbox, get promoting", async () => {
    const p = provider({ maxCachedSandboxes: 2 });
    const first = await p.acquire("t1");
    await p.acquire("t2");
    expect(p.get(first.id)).toBe(first);
    await p.acquire("t3");
    expect(p.get("local:default:t2")).toBeUndefined();
    expect(p.get(first.id)).toBe(first);
  });

  it("keeps a sandbox after release", async () => {
    const p = provider();
    const sandbox = await p.acquire("t1");
    await p.release(sandbox.id);
    expect(p.get(sandbox.id)).toBe(sandbox);
    expect(await p.acquire("t1")).toBe(sandbox);
  });

  it("forgets everything on shutdown and refuses new work", async () => {
    const p = provider();
    const sandbox = await p.acquire("t1");
    await p.shutdown();
    expect(p.get(sandbox.id)).toBeUndefined();
    await expectCode(p.acquire("t1"), "UNAVAILABLE");
  });
});

describe("LocalSandboxProvider configuration", () => {
  function configCode(fn: () => unknown): string | undefined {
    try {
      fn();
    } catch (err) {
      return SandboxError.isInstance(err) ? err.code : String(err);
    }
    return undefined;
  }

  it("needs exactly one of runner and runnerFactory", () => {
    expect(configCode(() => new LocalSandboxProvider({ baseDir } as LocalSandboxProviderOptions))).toBe(
      "CONFIG_INVALID",
    );
    const both = { baseDir, runner, runnerFactory: () => runner } as unknown as LocalSandboxProviderOptions;
    expect(configCode(() => new LocalSandboxProvider(both))).toBe("CONFIG_INVALID");
  });

  it("rejects a missing skills folder, bad extra mounts and a bad cache size", () => {
    expect(configCode(() => provider({ skillsDir: path.join(tmp, "nope") }))).toBe("CONFIG_INVALID");
    expect(
      configCode(() => provider({ mounts: [{ virtualPath: "/mnt/skills/x", hostPath: skillsDir, readOnly: true }] })),
    ).toBe("CONFIG_INVALID");
    expect(configCode(() => provider({ maxCachedSandboxes: 0 }))).toBe("CONFIG_INVALID");
  });

  it("reports thread folders without creating them", () => {
    const paths = provider().threadPaths("t1", "u");
    expect(paths.workspace).toBe(path.join(baseDir, "users", "u", "threads", "t1", "user-data", "workspace"));
    expect(() => provider().threadPaths("../t")).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
  });
});
