import { describe, expect, it } from "vitest";
import { SandboxError } from "../errors.js";
import { toSandboxError } from "./fs-errors.js";
import { OpenRefusedError } from "./safe-open.js";

const vpath = "/mnt/user-data/workspace/a.txt";

function nodeError(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: failed, open '/srv/secret/host/path'`), { code });
}

describe("toSandboxError", () => {
  it.each([
    ["ENOENT", "NOT_FOUND", "File not found: /mnt/user-data/workspace/a.txt"],
    ["EISDIR", "IS_A_DIRECTORY", "Path is a directory, not a file: /mnt/user-data/workspace/a.txt"],
    ["ENOTDIR", "NOT_A_DIRECTORY", "Path is not a directory: /mnt/user-data/workspace/a.txt"],
    ["EACCES", "PERMISSION_DENIED", "Permission denied: /mnt/user-data/workspace/a.txt"],
    ["EROFS", "READ_ONLY", "Read-only file system: /mnt/user-data/workspace/a.txt"],
    ["ELOOP", "PATH_ESCAPE", "Access denied: path escapes mounted directory"],
    ["ENOSPC", "TOO_LARGE", "No space left on device: /mnt/user-data/workspace/a.txt"],
    ["EIO", "UNAVAILABLE", "I/O error (EIO): /mnt/user-data/workspace/a.txt"],
  ])("maps %s to %s", (code, expected, message) => {
    const err = toSandboxError(nodeError(code), vpath, "file");
    expect(err.code).toBe(expected);
    expect(err.message).toBe(message);
    expect(err.path).toBe(vpath);
  });

  it("never keeps the host error as cause", () => {
    const err = toSandboxError(nodeError("EIO"), vpath);
    expect(err.cause).toBeUndefined();
    expect(JSON.stringify({ ...err, message: err.message })).not.toContain("/srv/secret");
  });

  it("words NOT_FOUND for directories", () => {
    expect(toSandboxError(nodeError("ENOENT"), "/mnt/x", "directory").message).toBe("Directory not found: /mnt/x");
  });

  it("maps open refusals", () => {
    expect(toSandboxError(new OpenRefusedError("directory"), vpath).code).toBe("IS_A_DIRECTORY");
    expect(toSandboxError(new OpenRefusedError("not-regular"), vpath).code).toBe("INVALID_ARGUMENT");
  });

  it("passes SandboxErrors through", () => {
    const original = new SandboxError("TIMEOUT", "slow");
    expect(toSandboxError(original, vpath)).toBe(original);
  });
});
