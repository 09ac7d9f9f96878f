import { chown, mkdir, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OwnershipWatch } from "./ownership-watch.js";

// Entries of FOREIGN stand for the root-owned entries the real watch looks for;
// planting them needs chown, so these tests run as root (as the sandbox does).
const FOREIGN = 4242;
const asRoot = process.geteuid?.() === 0;

describe.runIf(asRoot)("OwnershipWatch", () => {
  let root: string;
  let workspace: string;
  let outputs: string;
  let adopted: number;
  let clock: number;
  const watch = () =>
    new OwnershipWatch([workspace, outputs, path.join(workspace, "nested-root")], {
      fromUid: FOREIGN,
      adopt: async () => {
        adopted += 1;
      },
      // Far enough ahead that every ctime on disk counts as settled.
      now: () => clock,
    });
  const plant = async (file: string): Promise<void> => {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, "x");
    await chown(file, FOREIGN, FOREIGN);
  };

  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), "ownership-watch-"));
    workspace = path.join(root, "workspace");
    outputs = path.join(root, "outputs");
    await mkdir(path.join(workspace, "a", "b"), { recursive: true });
    await mkdir(outputs);
    await writeFile(path.join(workspace, "a", "b", "mine.txt"), "x");
    adopted = 0;
    clock = Date.now() + 60_000;
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("looks at everything the first time", async () => {
    const w = watch();
    expect(await w.prepare()).toBe(false);
    await plant(path.join(outputs, "deep", "er", "f.txt"));
    const fresh = watch();
    expect(await fresh.prepare()).toBe(true);
    expect(adopted).toBe(1);
  });

  it("skips the pass while nothing changed", async () => {
    const w = watch();
    await w.prepare();
    clock += 60_000;
    expect(await w.prepare()).toBe(false);
    expect(await w.prepare()).toBe(false);
    expect(adopted).toBe(0);
  });

  it("runs the pass for a foreign entry created in a known directory", async () => {
    const w = watch();
    await w.prepare();
    await plant(path.join(workspace, "a", "b", "theirs.txt"));
    clock += 60_000;
    expect(await w.prepare()).toBe(true);
    expect(adopted).toBe(1);
  });

  it("runs the pass for a foreign entry deep in a new directory tree", async () => {
    const w = watch();
    await w.prepare();
    await plant(path.join(workspace, "new", "x", "y", "z.txt"));
    clock += 60_000;
    expect(await w.prepare()).toBe(true);
  });

  it("runs the pass for a directory of the foreign owner", async () => {
    const w = watch();
    await w.prepare();
    await mkdir(path.join(outputs, "dir"));
    await chown(path.join(outputs, "dir"), FOREIGN, FOREIGN);
    clock += 60_000;
    expect(await w.prepare()).toBe(true);
  });

  it("does not run it for new entries of other owners", async () => {
    const w = watch();
    await w.prepare();
    await writeFile(path.join(workspace, "a", "another.txt"), "x");
    await mkdir(path.join(workspace, "c", "d"), { recursive: true });
    clock += 60_000;
    expect(await w.prepare()).toBe(false);
  });

  it("sees a change whose directory mtime was set back (ctime cannot be)", async () => {
    const w = watch();
    await w.prepare();
    const dir = path.join(workspace, "a");
    await plant(path.join(dir, "restored.txt"));
    await utimes(dir, new Date(2000, 0, 1), new Date(2000, 0, 1));
    clock += 60_000;
    expect(await w.prepare()).toBe(true);
  });

  it("looks again into directories changed too close to the previous look to be trusted", async () => {
    // A change that leaves the folder's ctime as it was (here: an entry's owner
    // changing; in general, a change in the same clock tick as the look) is
    // only seen because a ctime that recent is not trusted.
    const file = path.join(workspace, "a", "b", "recent.txt");
    await writeFile(file, "x");
    clock = Date.now();
    const w = watch();
    expect(await w.prepare()).toBe(false);
    await chown(file, FOREIGN, FOREIGN);
    expect(await w.prepare()).toBe(true);
  });

  it("lets callers that arrive during a look share one look of their own", async () => {
    const first = path.join(workspace, "first.txt");
    const second = path.join(outputs, "second.txt");
    let release: () => void = () => {};
    const passes: number[] = [];
    const w = new OwnershipWatch([workspace, outputs], {
      fromUid: FOREIGN,
      adopt: async () => {
        passes.push(passes.length + 1);
        if (passes.length > 1) return;
        // The first pass hands first.txt over, then holds its look open.
        await chown(first, 0, 0);
        await new Promise<void>((resolve) => (release = resolve));
      },
    });
    await plant(first);
    const looking = w.prepare();
    while (passes.length === 0) await new Promise((r) => setTimeout(r, 5));
    await plant(second);
    const [late, later] = [w.prepare(), w.prepare()];
    release();
    expect(await looking).toBe(true);
    // Only a new look can have seen second.txt; the two late callers shared it.
    expect(await late).toBe(true);
    expect(await later).toBe(true);
    expect(passes).toEqual([1, 2]);
  });
});
