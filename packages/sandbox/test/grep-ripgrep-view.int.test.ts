/**
 * ripgrep sees only the sandbox's view. A command of the sandbox can swap a
 * folder for a symlink at any moment, so the worst case for any walk is a
 * symlink sitting exactly where a folder was: below the search root (ripgrep
 * never follows those) or as the search root itself (a path given to ripgrep
 * is followed). Here the links are planted for good, pointing at a host folder
 * outside the sandbox. Under bubblewrap ripgrep runs inside the sandbox's
 * mount namespace, where that host folder does not exist, so nothing outside
 * ever reaches its listing; on the host (a non-isolated runner, where commands
 * see the host anyway) the explicit-root case would reach it — the reason an
 * isolated sandbox never runs ripgrep on the host.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BubblewrapRunner, HostRunner, LocalSandbox, type CommandRunner, type Mount } from "../src/index.js";
import { findExecutable } from "../src/exec/executables.js";
import { sandboxRipgrep } from "../src/search/sandbox-ripgrep.js";
import { createTempRoot } from "./support/local-fixture.js";
import { ObservedRunner } from "./support/observed-runner.js";

const WS = "/mnt/user-data/workspace";
const rgFound = findExecutable("rg") !== undefined;
const bwrapUsable = await BubblewrapRunner.isAvailable();

describe.skipIf(!rgFound)("the ripgrep listing and symlinks out of the sandbox", () => {
  let root: string;
  let mounts: Mount[];

  const search = (inner: CommandRunner) => {
    const runner = new ObservedRunner(inner);
    const ripgrep = sandboxRipgrep({ runner, mounts, limits: {}, environment: () => inner.baseEnvironment?.() ?? {} });
    return { runner, ripgrep };
  };

  beforeAll(async () => {
    root = await createTempRoot("rg-view");
    const workspace = path.join(root, "thread", "workspace");
    const outside = path.join(root, "outside");
    await fs.mkdir(path.join(workspace, "inside"), { recursive: true });
    await fs.mkdir(outside, { recursive: true });
    await fs.writeFile(path.join(outside, "host-secret.txt"), "needle outside the sandbox\n");
    await fs.writeFile(path.join(workspace, "inside", "own.txt"), "needle inside\n");
    // What a swap loop leaves at its worst moment: folders that are links to the host.
    await fs.symlink(outside, path.join(workspace, "escape"));
    await fs.symlink("../../outside", path.join(workspace, "inside", "rel-escape"));
    mounts = [{ virtualPath: WS, hostPath: workspace, readOnly: false }];
  });

  afterAll(async () => {
    if (root !== undefined) await fs.rm(root, { recursive: true, force: true });
  });

  it.skipIf(!bwrapUsable)(
    "never lists a host file through a link below the root or as the root, under bubblewrap",
    async () => {
      const { runner, ripgrep } = search(new BubblewrapRunner());
      const below = await ripgrep.candidates(/needle/, WS, [WS]);
      expect(below?.has("inside/own.txt")).toBe(true);
      expect(below?.size).toBe(1);
      // The root itself swapped for a link to the host folder: inside the namespace it leads nowhere.
      const asRoot = await ripgrep.candidates(/needle/, WS, [WS, `${WS}/escape`, `${WS}/inside/rel-escape`]);
      expect(asRoot === undefined || (asRoot.size === 1 && asRoot.has("inside/own.txt"))).toBe(true);
      expect(runner.listings.map((r) => r.stdout).join("")).not.toContain("host-secret");
    },
  );

  it.skipIf(!bwrapUsable)("returns only the sandbox's own matches from grep under bubblewrap", async () => {
    const sandbox = new LocalSandbox({ id: "local:default:view", mounts, runner: new BubblewrapRunner() });
    expect((await sandbox.grep(WS, "needle")).matches).toEqual([
      { path: `${WS}/inside/own.txt`, line: 1, text: "needle inside" },
    ]);
  });

  it("would reach the host folder through a root link on the host runner (why isolated sandboxes never run it there)", async () => {
    const { ripgrep } = search(new HostRunner());
    expect((await ripgrep.candidates(/needle/, WS, [WS]))?.size).toBe(1);
    const asRoot = await ripgrep.candidates(/needle/, WS, [WS, `${WS}/escape`]);
    expect(asRoot?.has("escape/host-secret.txt")).toBe(true);
  });
});
