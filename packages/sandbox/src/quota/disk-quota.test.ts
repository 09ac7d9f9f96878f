import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SandboxError } from "../errors.js";
import { DEFAULT_QUOTA_FILES, DiskQuota } from "./disk-quota.js";

let root: string;
let workspace: string;
let outputs: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "disk-quota-"));
  workspace = path.join(root, "workspace");
  outputs = path.join(root, "outputs");
  await mkdir(workspace);
  await mkdir(outputs);
});
afterEach(() => rm(root, { recursive: true, force: true }));

async function refusal(promise: Promise<unknown>): Promise<SandboxError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(SandboxError.isInstance(err), `expected QUOTA_EXCEEDED, got ${String(err)}`).toBe(true);
  expect((err as SandboxError).code).toBe("QUOTA_EXCEEDED");
  return err as SandboxError;
}

const write = (
  virtualPath: string,
  bytes: number,
  extra: { existingBytes?: number; append?: boolean; created?: boolean; createdDirs?: number } = {},
) => ({
  virtualPath,
  bytes,
  existingBytes: extra.existingBytes ?? 0,
  append: extra.append ?? false,
  created: extra.created ?? true,
  createdDirs: extra.createdDirs ?? 0,
});

describe("DiskQuota", () => {
  it("counts the roots together and defaults the entries bound", async () => {
    await writeFile(path.join(workspace, "a"), Buffer.alloc(300));
    await writeFile(path.join(outputs, "b"), Buffer.alloc(200));
    const quota = new DiskQuota({ roots: [workspace, outputs], limits: { bytes: 1000 } });
    expect(quota.limits).toEqual({ bytes: 1000, files: DEFAULT_QUOTA_FILES });
    expect(await quota.measure()).toMatchObject({ bytes: 500, files: 2 });
  });

  it("charges writes and refuses the one that would cross the bytes quota, naming the path and figures", async () => {
    const quota = new DiskQuota({ roots: [workspace], limits: { bytes: 1000 } });
    await quota.chargeWrite(write("/mnt/user-data/workspace/a", 600));
    // The first write moved the cached usage: no walk saw the file (none was written), yet the second is refused.
    const err = await refusal(quota.chargeWrite(write("/mnt/user-data/workspace/b", 600)));
    expect(err.path).toBe("/mnt/user-data/workspace/b");
    expect(err.message).toBe(
      "Disk quota exceeded: writing 600 bytes to /mnt/user-data/workspace/b would bring the thread's files to 1.2 KiB in 2 entries; the quota is 1000 bytes and 1,000,000 entries. Delete files to free space.",
    );
    await quota.chargeWrite(write("/mnt/user-data/workspace/c", 400));
  });

  it("lets a replacement that shrinks or keeps the size through even when over the quota", async () => {
    await writeFile(path.join(workspace, "big"), Buffer.alloc(2000));
    const quota = new DiskQuota({ roots: [workspace], limits: { bytes: 1000 } });
    await quota.chargeWrite(write("/mnt/user-data/workspace/big", 1500, { existingBytes: 2000, created: false }));
    await quota.chargeWrite(write("/mnt/user-data/workspace/big", 1500, { existingBytes: 1500, created: false }));
    await refusal(
      quota.chargeWrite(
        write("/mnt/user-data/workspace/big", 1, { existingBytes: 1500, created: false, append: true }),
      ),
    );
  });

  it("counts appends by the bytes added and replacements by the difference", async () => {
    await writeFile(path.join(workspace, "log"), Buffer.alloc(900));
    const quota = new DiskQuota({ roots: [workspace], limits: { bytes: 1000 } });
    await quota.chargeWrite(write("/mnt/user-data/workspace/log", 1000, { existingBytes: 900, created: false }));
    await refusal(
      quota.chargeWrite(
        write("/mnt/user-data/workspace/log", 1, { existingBytes: 1000, created: false, append: true }),
      ),
    );
  });

  it("refuses a write that would create one entry too many, counting created folders", async () => {
    await writeFile(path.join(workspace, "a"), "1");
    const quota = new DiskQuota({ roots: [workspace], limits: { files: 3 } });
    expect(quota.limits.bytes).toBe(Number.POSITIVE_INFINITY);
    await refusal(quota.chargeWrite(write("/mnt/user-data/workspace/x/y/z", 1, { createdDirs: 2 })));
    await quota.chargeWrite(write("/mnt/user-data/workspace/x/z", 1, { createdDirs: 1 }));
    const err = await refusal(quota.chargeWrite(write("/mnt/user-data/workspace/b", 1)));
    expect(err.message).toContain("the quota is 3 entries");
    // Rewriting an existing file adds no entry.
    await quota.chargeWrite(write("/mnt/user-data/workspace/a", 1, { existingBytes: 1, created: false }));
  });

  it("refuses growth while the folders cannot all be measured", async () => {
    const deep = path.join(workspace, ...Array.from({ length: 300 }, () => "d"));
    await mkdir(deep, { recursive: true });
    const quota = new DiskQuota({ roots: [workspace], limits: { bytes: 1 << 30 } });
    const err = await refusal(quota.chargeWrite(write("/mnt/user-data/workspace/a", 1)));
    expect(err.message).toMatch(/could not all be measured \(folders are nested deeper than 256 levels\)/);
  });

  it("re-measures a cached usage once it is older than maxAgeMs", async () => {
    const quota = new DiskQuota({ roots: [workspace], limits: { bytes: 1000 }, maxAgeMs: 0 });
    await quota.chargeWrite(write("/mnt/user-data/workspace/a", 600));
    // Nothing was written, and the cache is stale at once: the walk finds 0 bytes, so this fits.
    await quota.chargeWrite(write("/mnt/user-data/workspace/b", 600));
    await writeFile(path.join(workspace, "real"), Buffer.alloc(900));
    await refusal(quota.chargeWrite(write("/mnt/user-data/workspace/c", 200)));
  });

  it("serialises concurrent writes on the same figures: only what fits passes", async () => {
    const quota = new DiskQuota({ roots: [workspace], limits: { bytes: 1000 } });
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => quota.chargeWrite(write(`/mnt/user-data/workspace/f${i}`, 300))),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(3);
  });

  it("rejects negative or fractional limits", () => {
    expect(() => new DiskQuota({ roots: [workspace], limits: { bytes: -1 } })).toThrow(
      /must be a non-negative integer/,
    );
    expect(() => new DiskQuota({ roots: [workspace], limits: { files: 1.5 } })).toThrow(
      /must be a non-negative integer/,
    );
  });
});

describe("CommandQuota", () => {
  it("fixes the threshold at the quota, or at the usage when the thread is already past it", async () => {
    const quota = new DiskQuota({ roots: [workspace], limits: { bytes: 1000, files: 10 } });
    const under = await quota.beginCommand();
    expect(under.threshold).toEqual({ bytes: 1000, files: 10 });
    expect(under.fileSizeCap()).toBe(1001);
    await writeFile(path.join(workspace, "big"), Buffer.alloc(1500));
    await quota.measure();
    const over = await quota.beginCommand();
    expect(over.threshold).toEqual({ bytes: 1500, files: 10 });
    expect(over.fileSizeCap()).toBe(1);
    expect((await over.finish()).crossed).toBe(false);
    await writeFile(path.join(workspace, "more"), "x");
    expect((await over.finish()).crossed).toBe(true);
  });

  it("has no file-size cap without a bytes quota", async () => {
    const quota = new DiskQuota({ roots: [workspace], limits: { files: 10 } });
    expect((await quota.beginCommand()).fileSizeCap()).toBeUndefined();
  });

  it("watches the folders while a command runs and reports the crossing once", async () => {
    const quota = new DiskQuota({ roots: [workspace], limits: { bytes: 1000 }, pollIntervalMs: 10 });
    const check = await quota.beginCommand();
    const crossings: number[] = [];
    const crossed = new Promise<void>((resolve) => {
      const stop = check.watch((usage) => {
        crossings.push(usage.bytes);
        stop();
        resolve();
      });
    });
    await writeFile(path.join(workspace, "a"), Buffer.alloc(600));
    await writeFile(path.join(workspace, "b"), Buffer.alloc(600));
    await crossed;
    expect(crossings).toEqual([1200]);
  });

  it("stops polling when told to", async () => {
    const quota = new DiskQuota({ roots: [workspace], limits: { bytes: 10 }, pollIntervalMs: 10 });
    const check = await quota.beginCommand();
    let calls = 0;
    const stop = check.watch(() => {
      calls += 1;
    });
    stop();
    await writeFile(path.join(workspace, "a"), Buffer.alloc(600));
    await new Promise((r) => setTimeout(r, 100));
    expect(calls).toBe(0);
  });
});
