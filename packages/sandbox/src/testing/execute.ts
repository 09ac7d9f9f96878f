/**
 * `execute`: exit codes, separate streams, environment, working directory,
 * background jobs, timeouts and aborts (which kill the whole process tree).
 */
import { WORKSPACE_PATH } from "../limits.js";
import { expectSandboxError, expectSuccess, shellQuote, sleep, waitFor, type Kit } from "./context.js";

/** Registers the execute checks. */
export function executeTests(kit: Kit): void {
  const { expect } = kit;
  kit.test("has a non-empty id", async () => {
    expect(typeof kit.sandbox().id).toBe("string");
    expect(kit.sandbox().id.length).toBeGreaterThan(0);
  });

  kit.test("returns stdout and exit code 0 for a successful command", async () => {
    const result = await kit.sandbox().execute("echo hello");
    expect(result).toMatchObject({ stdout: "hello\n", stderr: "", exitCode: 0, timedOut: false, truncated: false });
  });

  kit.test("reports a non-zero exit code without rejecting", async () => {
    const result = await kit.sandbox().execute("echo before; exit 3");
    expect(result.exitCode).toBe(3);
    expect(result.stdout).toBe("before\n");
    expect(result.timedOut).toBe(false);
  });

  kit.test("keeps stderr separate from stdout", async () => {
    const result = await kit.sandbox().execute("echo out; echo err >&2; echo out2");
    expect(result.stdout).toBe("out\nout2\n");
    expect(result.stderr).toBe("err\n");
    expect(result.exitCode).toBe(0);
  });

  kit.test("reads nothing from stdin", async () => {
    const result = await kit.sandbox().execute("cat; echo done", { timeoutMs: kit.ms(20_000) });
    expect(result).toMatchObject({ stdout: "done\n", timedOut: false, exitCode: 0 });
  });

  kit.test("runs in the workspace by default", async () => {
    const result = expectSuccess(kit, await kit.sandbox().execute("pwd"));
    expect(result.stdout.trim()).toBe(WORKSPACE_PATH);
  });

  kit.test("runs in the given cwd", async () => {
    const dir = kit.dir("cwd");
    await kit.sandbox().writeFile(`${dir}/marker.txt`, "here");
    const result = expectSuccess(kit, await kit.sandbox().execute("pwd; cat marker.txt", { cwd: dir }));
    expect(result.stdout).toBe(`${dir}\nhere`);
  });

  kit.test("rejects a missing cwd with NOT_FOUND and a file cwd with NOT_A_DIRECTORY", async () => {
    const dir = kit.dir("bad-cwd");
    await kit.sandbox().writeFile(`${dir}/file.txt`, "x");
    await expectSandboxError(kit, kit.sandbox().execute("pwd", { cwd: `${dir}/missing` }), "NOT_FOUND");
    await expectSandboxError(kit, kit.sandbox().execute("pwd", { cwd: `${dir}/file.txt` }), "NOT_A_DIRECTORY");
  });

  kit.test("rejects a cwd outside the sandbox", async () => {
    await expectSandboxError(kit, kit.sandbox().execute("pwd", { cwd: "/etc" }), "PATH_NOT_ALLOWED");
    await expectSandboxError(
      kit,
      kit.sandbox().execute("pwd", { cwd: `${WORKSPACE_PATH}/../../../etc` }),
      "PATH_ESCAPE",
    );
  });

  for (const timeoutMs of [0, -1, Number.NaN]) {
    kit.test(`rejects timeoutMs ${String(timeoutMs)} with INVALID_ARGUMENT`, async () => {
      await expectSandboxError(kit, kit.sandbox().execute("true", { timeoutMs }), "INVALID_ARGUMENT");
    });
  }

  kit.test("injects env variables, values verbatim", async () => {
    const value = "two words; $HOME 'quoted' \"double\" ünï";
    const result = expectSuccess(
      kit,
      await kit.sandbox().execute('printf "%s|%s" "$KIT_ONE" "$_kit_two"', { env: { KIT_ONE: value, _kit_two: "" } }),
    );
    expect(result.stdout).toBe(`${value}|`);
  });

  kit.test("lets injected env override an inherited variable", async () => {
    const result = expectSuccess(
      kit,
      await kit.sandbox().execute('printf %s "$PATH"', { env: { PATH: "/usr/bin:/bin:/kit-marker" } }),
    );
    expect(result.stdout).toBe("/usr/bin:/bin:/kit-marker");
  });

  for (const name of ["1BAD", "A-B", "A=B", "", "A B", "É"]) {
    kit.test(`rejects the env name ${JSON.stringify(name)} with INVALID_ARGUMENT`, async () => {
      await expectSandboxError(kit, kit.sandbox().execute("true", { env: { [name]: "x" } }), "INVALID_ARGUMENT");
    });
  }

  kit.test(
    "returns immediately from a command that leaves a job in the background",
    async () => {
      // The test's own timeout (20 s) fails the test if execute waits for the 100 s sleep.
      const result = await kit.sandbox().execute("sleep 100 &", { timeoutMs: kit.ms(60_000) });
      expect(result.exitCode).toBe(0);
      expect(result.timedOut).toBe(false);
    },
    20_000,
  );

  kit.test(
    "returns immediately when a background job keeps stdout open",
    async () => {
      const result = await kit
        .sandbox()
        .execute("echo started; (sleep 100; echo late) &", { timeoutMs: kit.ms(60_000) });
      expect(result).toMatchObject({ exitCode: 0, timedOut: false });
      expect(result.stdout).toBe("started\n");
    },
    20_000,
  );

  kit.test("kills a command at its timeout and sets timedOut", async () => {
    // Long enough for a loaded machine to start the sandbox and print the first line.
    const result = await kit.sandbox().execute("echo begun; sleep 100; echo never", { timeoutMs: kit.ms(2500) });
    expect(result.timedOut).toBe(true);
    expect(result.signal).toBe("SIGKILL");
    expect(result.exitCode).toBeNull();
    expect(result.stdout).toContain("begun");
    expect(result.stdout).not.toContain("never");
  });

  kit.test("kills the command's children at the timeout", async () => {
    const dir = kit.dir("timeout-children");
    await kit.sandbox().writeFile(`${dir}/.keep`, "");
    const childDelay = kit.ms(1000) + 1500;
    const command = `(sleep ${childDelay / 1000}; echo alive > child-survived) & sleep 100`;
    const result = await kit.sandbox().execute(command, { cwd: dir, timeoutMs: kit.ms(1000) });
    expect(result.timedOut).toBe(true);
    // Wait past the moment the child would have written its marker.
    await sleep(childDelay + 1000);
    await expectSandboxError(kit, kit.sandbox().readFile(`${dir}/child-survived`), "NOT_FOUND");
  });

  kit.test("rejects with ABORTED and kills the process tree when the signal aborts", async () => {
    const dir = kit.dir("abort");
    await kit.sandbox().writeFile(`${dir}/.keep`, "");
    const controller = new AbortController();
    const command = "(sleep 3; echo alive > child-survived) & echo started > started; sleep 100";
    const running = kit.sandbox().execute(command, { cwd: dir, timeoutMs: kit.ms(60_000), signal: controller.signal });
    running.catch(() => undefined);
    const started = await waitFor(
      () =>
        kit
          .sandbox()
          .readFile(`${dir}/started`)
          .then(
            () => true,
            () => false,
          ),
      kit.ms(15_000),
    );
    expect(started).toBe(true);
    controller.abort();
    await expectSandboxError(kit, running, "ABORTED");
    await sleep(4000);
    await expectSandboxError(kit, kit.sandbox().readFile(`${dir}/child-survived`), "NOT_FOUND");
  });

  kit.test("rejects with ABORTED when the signal is already aborted", async () => {
    const dir = kit.dir("pre-aborted");
    const controller = new AbortController();
    controller.abort();
    await expectSandboxError(
      kit,
      kit.sandbox().execute(`mkdir -p ${shellQuote(dir)}`, { signal: controller.signal }),
      "ABORTED",
    );
    // The command never ran.
    await expectSandboxError(kit, kit.sandbox().listDir(dir), "NOT_FOUND");
  });

  kit.test("runs concurrent commands independently", async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => kit.sandbox().execute(`sleep 0.2; echo ${i}; echo e${i} >&2; exit ${i}`)),
    );
    results.forEach((r, i) => expect(r).toMatchObject({ stdout: `${i}\n`, stderr: `e${i}\n`, exitCode: i }));
  });

  kit.test("sees files written through the file API, byte for byte", async () => {
    const dir = kit.dir("consistency");
    const content = `plain line\nunicode: héllo 世界 🦌\npath: ${WORKSPACE_PATH}/x\n`;
    await kit.sandbox().writeFile(`${dir}/a.txt`, content);
    const result = expectSuccess(
      kit,
      await kit.sandbox().execute(`cat ${shellQuote(`${dir}/a.txt`)}; wc -c < a.txt`, { cwd: dir }),
    );
    expect(result.stdout).toBe(`${content}${Buffer.byteLength(content)}\n`);
  });

  kit.test("writes files the file API reads back", async () => {
    const dir = kit.dir("cmd-writes");
    expectSuccess(
      kit,
      await kit.sandbox().execute(`mkdir -p ${shellQuote(dir)} && printf 'a\\nb\\n' > ${shellQuote(`${dir}/out.txt`)}`),
    );
    expect(await kit.sandbox().readFile(`${dir}/out.txt`)).toBe("a\nb\n");
  });
}
