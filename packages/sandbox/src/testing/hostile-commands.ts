/**
 * Hostile commands: escapes to the host (isolated sandboxes only), fork bombs,
 * disk fillers, commands that never end or detach, floods of output, binary
 * output, and host paths leaking into results.
 */
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import os from "node:os";
import { MAX_STREAM_OUTPUT_BYTES, WORKSPACE_PATH } from "../limits.js";
import { expectSandboxError, expectSuccess, shellQuote, sleep, type Kit } from "./context.js";

const TRUNCATION_NOTICE = /output truncated/i;

/** Registers the hostile-command checks. */
export function hostileCommandTests(kit: Kit): void {
  const { expect } = kit;
  const { isolated } = kit.options;

  kit.testIf(isolated, "cannot read /etc/shadow", async () => {
    for (const path of ["/etc/shadow", `${WORKSPACE_PATH}/../../../etc/shadow`]) {
      const result = await kit.sandbox().execute(`cat ${shellQuote(path)}`);
      expect(result.exitCode).not.toBe(0);
      expect(result.stdout).not.toMatch(/^root:/m);
    }
  });

  kit.testIf(isolated, "cannot see the host's /root", async () => {
    const result = await kit.sandbox().execute("ls -A /root");
    if (result.exitCode === 0) expect(result.stdout.trim()).toBe("");
  });

  kit.testIf(isolated, "cannot see host directories: its own root, the test's cwd, the host home", async () => {
    const hostDirs = [...kit.options.hostRoots, process.cwd(), os.homedir()].filter((d) => d !== "/");
    for (const [i, dir] of hostDirs.entries()) {
      // Only the verdict is asserted, so a failure message names the index, never the path.
      const result = await kit
        .sandbox()
        .execute(`if [ -n "$(ls -A ${shellQuote(dir)} 2>/dev/null)" ]; then echo visible; else echo hidden; fi`);
      expect({ hostDir: i, seen: result.stdout.trim() }).toEqual({ hostDir: i, seen: "hidden" });
    }
  });

  // Files these checks try to plant outside the mounts are removed again through
  // the sandbox, so an implementation that wrongly claims isolation leaves no debris.
  const unique = () => `kit-hostile-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const removeThroughSandbox = (paths: readonly string[]) =>
    kit.sandbox().execute(`rm -f ${paths.map(shellQuote).join(" ")} 2>/dev/null; true`);

  kit.testIf(isolated, "cannot write to the host's system directories", async () => {
    const targets = ["/usr/bin", "/usr/lib"].map((d) => `${d}/${unique()}`);
    try {
      for (const target of targets) {
        const result = await kit.sandbox().execute(`echo hostile > ${shellQuote(target)}`);
        expect({ target, exitCode: result.exitCode === 0 ? 0 : "non-zero" }).toEqual({ target, exitCode: "non-zero" });
        expect(existsSync(target)).toBe(false);
      }
    } finally {
      await removeThroughSandbox(targets);
    }
  });

  kit.testIf(isolated, "leaves the host untouched by writes outside its mounts", async () => {
    // The sandbox may give a command a private, throwaway root; the host must not see the files.
    const name = unique();
    const dirs = ["/etc", "/root", "/home", "/var/tmp", "/mnt", ""];
    const targets = [...dirs.map((d) => `${d}/${name}`), `${WORKSPACE_PATH}/../${name}`];
    try {
      await kit
        .sandbox()
        .execute(targets.map((t) => `echo hostile > ${shellQuote(t)} 2>/dev/null`).join("; ") + "; true");
      for (const dir of dirs)
        expect({ dir: dir || "/", exists: existsSync(`${dir}/${name}`) }).toEqual({ dir: dir || "/", exists: false });
      for (const [i, root] of kit.options.hostRoots.entries())
        expect({ hostRoot: i, found: await findByName(root, name) }).toEqual({ hostRoot: i, found: false });
    } finally {
      await removeThroughSandbox(targets);
    }
  });

  kit.testIf(isolated, "has a /tmp of its own", async () => {
    const target = `/tmp/${unique()}`;
    try {
      expectSuccess(kit, await kit.sandbox().execute(`echo inside > ${target} && cat ${target}`));
      expect(existsSync(target)).toBe(false);
    } finally {
      await removeThroughSandbox([target]);
    }
  });

  kit.testIf(isolated, "cannot see host processes", async () => {
    const result = await kit
      .sandbox()
      .execute(
        `test -d /proc/${process.pid} && echo visible || echo hidden; test -d /proc/${process.ppid} && echo visible || echo hidden`,
      );
    expect(result.stdout).toBe("hidden\nhidden\n");
  });

  kit.test("kills a command that never ends at its timeout", async () => {
    const result = await kit
      .sandbox()
      .execute("trap '' TERM INT HUP; while :; do :; done", { timeoutMs: kit.ms(1000) });
    expect(result).toMatchObject({ timedOut: true, signal: "SIGKILL", exitCode: null });
    expectSuccess(kit, await kit.sandbox().execute("true"));
  });

  kit.testIf(isolated, "kills a child that started its own session at the timeout", async () => {
    const dir = kit.dir("setsid");
    await kit.sandbox().writeFile(`${dir}/.keep`, "");
    const delay = (kit.ms(1000) + 1500) / 1000;
    const result = await kit.sandbox().execute(`setsid sh -c 'sleep ${delay}; echo alive > survived' & sleep 100`, {
      cwd: dir,
      timeoutMs: kit.ms(1000),
    });
    expect(result.timedOut).toBe(true);
    await sleep(delay * 1000 + 1000);
    await expectSandboxError(kit, kit.sandbox().readFile(`${dir}/survived`), "NOT_FOUND");
  });

  const { processes, fileSizeBytes } = kit.options.resourceLimits;

  kit.testIf(
    isolated && processes !== undefined,
    `stops a command from running more than ${processes ?? "its limit of"} processes, then contains a fork bomb`,
    async () => {
      const cap = processes as number;
      // A bounded probe first: every sleeper that got started prints a line, so the
      // output counts them even when the stuck spawner is killed at the timeout. The
      // fork bomb runs only once the limit is shown to hold.
      const attempt = cap + 64;
      const probe = await kit
        .sandbox()
        .execute(`n=0; while [ $n -lt ${attempt} ]; do (echo s; exec sleep 30) & n=$((n+1)); done 2>/dev/null`, {
          timeoutMs: kit.ms(8000),
        });
      const started = probe.stdout.split("\n").filter((l) => l === "s").length;
      expect(started).toBeLessThan(attempt);
      const bomb = await kit.sandbox().execute("bomb() { bomb | bomb & }; bomb; sleep 3", { timeoutMs: kit.ms(5000) });
      expect(typeof bomb.timedOut).toBe("boolean");
      // Whatever is left of the bomb must not stop the next command.
      const after = expectSuccess(kit, await kit.sandbox().execute("echo still-alive", { timeoutMs: kit.ms(30_000) }));
      expect(after.stdout).toBe("still-alive\n");
    },
    90_000,
  );

  kit.testIf(
    fileSizeBytes !== undefined,
    `stops a disk filler at the ${String(fileSizeBytes)}-byte file-size limit`,
    async () => {
      const limit = fileSizeBytes as number;
      const dir = kit.dir("disk-filler");
      await kit.sandbox().writeFile(`${dir}/.keep`, "");
      // Just past the limit: if it does not hold, the check costs little disk.
      const attempt = limit + 8 * 1024 * 1024;
      try {
        const result = await kit
          .sandbox()
          .execute(`head -c ${attempt} /dev/zero > fill.bin`, { cwd: dir, timeoutMs: kit.ms(60_000) });
        expect(result.timedOut).toBe(false);
        expect(result.exitCode).not.toBe(0);
        const size = Number(
          expectSuccess(kit, await kit.sandbox().execute("stat -c %s fill.bin", { cwd: dir })).stdout.trim(),
        );
        expect(size).toBeLessThanOrEqual(limit);
      } finally {
        await kit.sandbox().execute("rm -f fill.bin", { cwd: dir });
      }
      expectSuccess(kit, await kit.sandbox().execute("echo ok > after.txt", { cwd: dir }));
    },
    120_000,
  );

  kit.test(
    "bounds 100 MB of stdout, sets truncated and appends a notice",
    async () => {
      const result = await kit
        .sandbox()
        .execute("head -c 100000000 /dev/zero | tr '\\000' a; echo done >&2", { timeoutMs: kit.ms(60_000) });
      expect(result.exitCode).toBe(0);
      expect(result.truncated).toBe(true);
      expect(result.stdout.length).toBeLessThanOrEqual(MAX_STREAM_OUTPUT_BYTES + 1024);
      expect(result.stdout.startsWith("aaaa")).toBe(true);
      expect(result.stdout).toMatch(TRUNCATION_NOTICE);
      expect(result.stderr).toBe("done\n");
    },
    120_000,
  );

  kit.test(
    "bounds a flood on stderr too",
    async () => {
      const result = await kit
        .sandbox()
        .execute("head -c 30000000 /dev/zero | tr '\\000' e >&2; echo fine", { timeoutMs: kit.ms(60_000) });
      expect(result.truncated).toBe(true);
      expect(result.stderr.length).toBeLessThanOrEqual(MAX_STREAM_OUTPUT_BYTES + 1024);
      expect(result.stderr).toMatch(TRUNCATION_NOTICE);
      expect(result.stdout).toBe("fine\n");
    },
    120_000,
  );

  kit.test("decodes binary output, invalid UTF-8 becoming U+FFFD", async () => {
    const result = expectSuccess(kit, await kit.sandbox().execute("printf 'ok\\377\\376\\000\\200end\\n'"));
    expect(result.stdout.startsWith("ok")).toBe(true);
    expect(result.stdout.endsWith("end\n")).toBe(true);
    expect(result.stdout).toContain("\uFFFD");
  });

  kit.test("survives a command that closes its output streams early", async () => {
    const result = await kit.sandbox().execute("exec >&- 2>&-; sleep 0.2; exit 4", { timeoutMs: kit.ms(20_000) });
    expect(result).toMatchObject({ exitCode: 4, timedOut: false });
  });

  kit.testIf(kit.options.hostRoots.length > 0, "keeps host paths out of outputs and error messages", async () => {
    // The leak guard around the sandbox fails any call whose result or error names a host root.
    const dir = kit.dir("leaks");
    await kit.sandbox().writeFile(`${dir}/f.txt`, "x");
    const s = kit.sandbox();
    await s.execute(`pwd; pwd -P; echo "$PWD" "$HOME" "$OLDPWD"; realpath . f.txt; readlink -f f.txt; ls -la; env`, {
      cwd: dir,
    });
    await s.execute(
      `ls ${shellQuote(`${dir}/missing`)}; cat ${shellQuote(`${dir}/missing`)}; cd ${shellQuote(`${dir}/missing`)}`,
      { cwd: dir },
    );
    await s.execute("python3 -c 'import os; print(os.getcwd())' 2>&1; node -e 'console.log(process.cwd())' 2>&1", {
      cwd: dir,
    });
    const failing: Array<() => Promise<unknown>> = [
      () => s.readFile(`${dir}/missing`),
      () => s.readFile(dir),
      () => s.listDir(`${dir}/f.txt`),
      () => s.writeFile(`${dir}/f.txt/x`, ""),
      () => s.grep(dir, "("),
    ];
    for (const call of failing) {
      await call().catch((err: unknown) => {
        if (err instanceof Error && err.name === "HostPathLeak") throw err;
      });
    }
  });

  kit.testIf(
    kit.options.hostRoots.length > 0,
    "keeps host paths out of /proc/self/mountinfo and /proc/self/cwd",
    async () => {
      await kit.sandbox().execute("cat /proc/self/mountinfo; readlink /proc/self/cwd; readlink /proc/$$/cwd");
    },
  );
}

/** True when a file called `name` exists anywhere under `root` (symlinks not followed). */
async function findByName(root: string, name: string): Promise<boolean> {
  const entries = await fs.readdir(root, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (entry.name === name) return true;
    if (entry.isDirectory() && (await findByName(path.join(root, entry.name), name))) return true;
  }
  return false;
}
