/**
 * The per-thread disk quota (`diskBytes`, `diskFiles`) through
 * `LocalSandboxProvider` and bubblewrap: tool writes past it are refused with
 * `QUOTA_EXCEEDED`, a command that writes past it is stopped (or told, when
 * it finished first) with a notice on stderr, files already written stay, and
 * deleting files makes room again. The workspace, uploads and outputs count
 * together. Under `CI=true` bubblewrap is required.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DISK_QUOTA_NOTICE_PREFIX } from "../src/bounds/bound-messages.js";
import {
  BubblewrapRunner,
  LocalSandboxProvider,
  OUTPUTS_PATH,
  SandboxError,
  UPLOADS_PATH,
  WORKSPACE_PATH,
  type LocalSandbox,
  type ResourceLimits,
} from "../src/index.js";
import { createProviderFolders, createTempRoot, uniqueThreadId } from "./support/local-fixture.js";

const MiB = 1024 * 1024;
const available = await BubblewrapRunner.isAvailable();
if (!available && process.env["CI"] === "true") throw new Error("bubblewrap (bwrap) is missing or unusable in CI");

const root = available ? await createTempRoot("sbx-quota") : undefined;
const providers: LocalSandboxProvider[] = [];
afterAll(async () => {
  await Promise.all(providers.map((p) => p.shutdown()));
  if (root !== undefined) await fs.rm(root, { recursive: true, force: true });
});

async function sandboxWith(
  limits: ResourceLimits,
): Promise<{ sandbox: LocalSandbox; workspace: string; uploads: string }> {
  const { baseDir } = await createProviderFolders(root as string);
  const provider = new LocalSandboxProvider({
    baseDir,
    runner: new BubblewrapRunner(),
    limits: { processes: 128, ...limits },
  });
  providers.push(provider);
  const thread = uniqueThreadId();
  const sandbox = await provider.acquire(thread);
  const folders = provider.threadPaths(thread);
  return { sandbox, workspace: folders.workspace, uploads: folders.uploads };
}

async function quotaError(promise: Promise<unknown>): Promise<SandboxError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(SandboxError.isInstance(err) ? err.code : String(err)).toBe("QUOTA_EXCEEDED");
  return err as SandboxError;
}

describe.skipIf(!available)(
  available ? "disk quota" : "disk quota: SKIPPED, bubblewrap (bwrap) is not installed or not usable here",
  () => {
    it("refuses a tool write that would cross diskBytes, keeps the earlier file, and lets shrinking writes through", async () => {
      const { sandbox } = await sandboxWith({ diskBytes: MiB });
      const first = "a".repeat(600 * 1024);
      await sandbox.writeFile(`${WORKSPACE_PATH}/first.txt`, first);
      const err = await quotaError(sandbox.writeFile(`${OUTPUTS_PATH}/second.txt`, "b".repeat(600 * 1024)));
      expect(err.path).toBe(`${OUTPUTS_PATH}/second.txt`);
      expect(err.message).toMatch(
        /^Disk quota exceeded: writing 600\.0 KiB to \/mnt\/user-data\/outputs\/second\.txt would bring the thread's files to 1\.2 MiB in 2 entries; the quota is 1\.0 MiB/,
      );
      await quotaError(sandbox.writeFile(`${WORKSPACE_PATH}/first.txt`, "c".repeat(500 * 1024), { append: true }));
      await quotaError(sandbox.writeBytes(`${UPLOADS_PATH}/third.bin`, new Uint8Array(500 * 1024)));
      expect(await sandbox.readFile(`${WORKSPACE_PATH}/first.txt`)).toBe(first);
      await expect(sandbox.readFile(`${OUTPUTS_PATH}/second.txt`)).rejects.toMatchObject({ code: "NOT_FOUND" });
      // A replacement that makes the file smaller frees room for the next write.
      await sandbox.writeFile(`${WORKSPACE_PATH}/first.txt`, "small");
      await sandbox.writeFile(`${OUTPUTS_PATH}/second.txt`, "b".repeat(600 * 1024));
    });

    it("refuses a tool write that would create one entry past diskFiles", async () => {
      const { sandbox } = await sandboxWith({ diskFiles: 3 });
      await sandbox.writeFile(`${WORKSPACE_PATH}/a.txt`, "1");
      await sandbox.writeFile(`${WORKSPACE_PATH}/b.txt`, "2");
      await sandbox.writeFile(`${WORKSPACE_PATH}/c.txt`, "3");
      const err = await quotaError(sandbox.writeFile(`${WORKSPACE_PATH}/d.txt`, "4"));
      expect(err.message).toContain("the quota is 3 entries");
      await sandbox.writeFile(`${WORKSPACE_PATH}/a.txt`, "rewritten"); // no new entry
    });

    it("cuts a single-file disk filler at the quota, tells the thread, and keeps earlier files", async () => {
      const { sandbox, workspace } = await sandboxWith({ diskBytes: 4 * MiB });
      await sandbox.writeFile(`${WORKSPACE_PATH}/keep.txt`, "precious\n");
      const result = await sandbox.execute("head -c 67108864 /dev/zero > fill.bin; echo rc=$?", { timeoutMs: 60_000 });
      expect(result.stdout).not.toBe("rc=0\n");
      expect(result.stderr).toContain(DISK_QUOTA_NOTICE_PREFIX);
      const size = (await fs.stat(path.join(workspace, "fill.bin"))).size;
      expect(size).toBeLessThanOrEqual(4 * MiB + 1);
      expect(await sandbox.readFile(`${WORKSPACE_PATH}/keep.txt`)).toBe("precious\n");
      // Over (or at) the quota: tool writes that add data are refused, deleting works and makes room.
      await quotaError(sandbox.writeFile(`${WORKSPACE_PATH}/more.txt`, "x".repeat(64 * 1024)));
      const cleanup = await sandbox.execute("rm fill.bin && echo removed");
      expect(cleanup).toMatchObject({ exitCode: 0, stdout: "removed\n" });
      expect(cleanup.stderr).not.toContain(DISK_QUOTA_NOTICE_PREFIX);
      await sandbox.writeFile(`${WORKSPACE_PATH}/more.txt`, "x".repeat(64 * 1024));
    }, 120_000);

    it("stops a command that keeps writing small files past the quota while it runs", async () => {
      const { sandbox, workspace } = await sandboxWith({ diskBytes: 8 * MiB });
      await sandbox.writeFile(`${WORKSPACE_PATH}/keep.txt`, "precious\n");
      const started = Date.now();
      const result = await sandbox.execute(
        "mkdir -p fill; i=0; while :; do head -c 262144 /dev/zero > fill/f$i; i=$((i+1)); done",
        { timeoutMs: 60_000 },
      );
      expect(result.timedOut).toBe(false);
      expect(Date.now() - started).toBeLessThan(50_000);
      expect(result).toMatchObject({ exitCode: null, signal: "SIGKILL" });
      expect(result.stderr).toContain(
        `${DISK_QUOTA_NOTICE_PREFIX} the thread's files (workspace, uploads, outputs) take`,
      );
      expect(result.stderr).toContain("The command was stopped; files already written were kept.");
      // Files written before the stop are all still there, whole.
      const names = await fs.readdir(path.join(workspace, "fill"));
      expect(names.length).toBeGreaterThan(8 * 4 - 2);
      expect(await sandbox.readFile(`${WORKSPACE_PATH}/keep.txt`)).toBe("precious\n");
      await sandbox.execute("rm -rf fill");
    }, 120_000);

    it("tells the thread when a command created more entries than diskFiles", async () => {
      const { sandbox } = await sandboxWith({ diskFiles: 50 });
      const result = await sandbox.execute("mkdir d && for i in $(seq 100); do : > d/f$i; done; echo done");
      // Stopped by a measurement while it ran, or told when it ended: a notice either way.
      expect(result.stderr).toContain(DISK_QUOTA_NOTICE_PREFIX);
      expect(result.stderr).toContain("the quota is 50 entries");
      await quotaError(sandbox.writeFile(`${WORKSPACE_PATH}/new.txt`, "x"));
      await sandbox.execute("rm -rf d");
      await sandbox.writeFile(`${WORKSPACE_PATH}/new.txt`, "x");
    }, 60_000);

    it("counts files placed in the thread's folders from outside (uploads) at the next command", async () => {
      const { sandbox, uploads } = await sandboxWith({ diskBytes: 2 * MiB });
      await fs.writeFile(path.join(uploads, "upload.bin"), Buffer.alloc(3 * MiB));
      const listing = await sandbox.execute("ls /mnt/user-data/uploads");
      expect(listing.stdout).toBe("upload.bin\n");
      // Already past the quota when it started, it grew nothing: no stop, no notice.
      expect(listing.stderr).not.toContain(DISK_QUOTA_NOTICE_PREFIX);
      await quotaError(sandbox.writeFile(`${WORKSPACE_PATH}/a.txt`, "x"));
      const grow = await sandbox.execute("echo more > more.txt");
      expect(grow.stderr).toContain(DISK_QUOTA_NOTICE_PREFIX);
    }, 60_000);

    it("leaves commands and writes alone without a quota", async () => {
      const { sandbox } = await sandboxWith({});
      expect(sandbox.bounds.quota).toBeUndefined();
      const result = await sandbox.execute("head -c 8388608 /dev/zero > big.bin; echo rc=$?");
      expect(result.stdout).toBe("rc=0\n");
      expect(result.stderr).toBe("");
    });
  },
);
