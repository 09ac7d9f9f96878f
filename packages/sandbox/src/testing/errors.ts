/** Error codes of the file API: every failure is a `SandboxError` with a stable code and a virtual path. */
import { MAX_READ_BYTES, WORKSPACE_PATH } from "../limits.js";
import { expectSandboxError, expectSuccess, shellQuote, type Kit } from "./context.js";

/** Registers the error-code checks. */
export function errorTests(kit: Kit): void {
  const { expect } = kit;
  const fixture = async (label: string): Promise<string> => {
    const root = kit.dir(label);
    await kit.sandbox().writeFile(`${root}/file.txt`, "text");
    await kit.sandbox().writeFile(`${root}/dir/inner.txt`, "inner");
    return root;
  };

  kit.test("rejects reading a missing file with NOT_FOUND, naming the virtual path", async () => {
    const path = `${kit.dir("missing")}/absent.txt`;
    const err = await expectSandboxError(kit, kit.sandbox().readFile(path), "NOT_FOUND");
    expect(err.message.includes(path) || err.path === path).toBe(true);
    await expectSandboxError(kit, kit.sandbox().readBytes(path), "NOT_FOUND");
  });

  kit.test("rejects reading a file below a missing directory with NOT_FOUND", async () => {
    await expectSandboxError(kit, kit.sandbox().readFile(`${kit.dir("missing-parent")}/no/such/file.txt`), "NOT_FOUND");
  });

  kit.test("rejects reading a directory with IS_A_DIRECTORY", async () => {
    const root = await fixture("read-dir");
    await expectSandboxError(kit, kit.sandbox().readFile(`${root}/dir`), "IS_A_DIRECTORY");
    await expectSandboxError(kit, kit.sandbox().readBytes(`${root}/dir`), "IS_A_DIRECTORY");
  });

  kit.test("rejects writing over a directory with IS_A_DIRECTORY and leaves it intact", async () => {
    const root = await fixture("write-dir");
    await expectSandboxError(kit, kit.sandbox().writeFile(`${root}/dir`, "x"), "IS_A_DIRECTORY");
    await expectSandboxError(kit, kit.sandbox().writeBytes(`${root}/dir`, new Uint8Array([1])), "IS_A_DIRECTORY");
    expect(await kit.sandbox().readFile(`${root}/dir/inner.txt`)).toBe("inner");
  });

  kit.test("rejects writing below a file with NOT_A_DIRECTORY and leaves the file intact", async () => {
    const root = await fixture("below-file");
    await expectSandboxError(kit, kit.sandbox().writeFile(`${root}/file.txt/child.txt`, "x"), "NOT_A_DIRECTORY");
    expect(await kit.sandbox().readFile(`${root}/file.txt`)).toBe("text");
  });

  kit.test("rejects reading below a file with NOT_A_DIRECTORY or NOT_FOUND", async () => {
    const root = await fixture("read-below-file");
    await expectSandboxError(kit, kit.sandbox().readFile(`${root}/file.txt/child.txt`), [
      "NOT_A_DIRECTORY",
      "NOT_FOUND",
    ]);
  });

  for (const path of ["/etc/passwd", "/tmp/kit.txt", "/", "/mnt", "/mnt/other/x.txt", "relative/path.txt"]) {
    kit.test(`rejects the path ${JSON.stringify(path)} outside the virtual roots with PATH_NOT_ALLOWED`, async () => {
      await expectSandboxError(kit, kit.sandbox().readFile(path), "PATH_NOT_ALLOWED");
      await expectSandboxError(kit, kit.sandbox().writeFile(path, "x"), "PATH_NOT_ALLOWED");
    });
  }

  kit.test("rejects listing, globbing and grepping outside the virtual roots with PATH_NOT_ALLOWED", async () => {
    await expectSandboxError(kit, kit.sandbox().listDir("/etc"), "PATH_NOT_ALLOWED");
    await expectSandboxError(kit, kit.sandbox().glob("/etc", "*"), "PATH_NOT_ALLOWED");
    await expectSandboxError(kit, kit.sandbox().grep("/etc", "root"), "PATH_NOT_ALLOWED");
  });

  kit.test("lists the workspace root without error", async () => {
    await fixture("workspace-root");
    const entries = await kit.sandbox().listDir(WORKSPACE_PATH, { maxDepth: 1 });
    expect(entries.every((e) => e.startsWith(`${WORKSPACE_PATH}/`))).toBe(true);
  });

  const fileSizeLimit = kit.options.resourceLimits.fileSizeBytes;
  kit.testIf(
    fileSizeLimit === undefined || fileSizeLimit > MAX_READ_BYTES,
    `rejects readBytes of a file over ${MAX_READ_BYTES} bytes with TOO_LARGE`,
    async () => {
      // Sparse, so it costs no disk; only possible where commands may write files that large.
      const root = await fixture("too-large");
      expectSuccess(
        kit,
        await kit.sandbox().execute(`truncate -s ${MAX_READ_BYTES + 1} ${shellQuote(`${root}/huge.bin`)}`),
      );
      await expectSandboxError(kit, kit.sandbox().readBytes(`${root}/huge.bin`), "TOO_LARGE");
    },
  );
}
