import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SandboxError } from "../errors.js";
import { validateExtraMounts, validateSandboxIdPart } from "./provider-config.js";

let tmp: string;

beforeEach(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), "sandbox-config-"));
  await fs.mkdir(path.join(tmp, "data"));
  await fs.writeFile(path.join(tmp, "file.txt"), "x");
});

afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

function configError(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (SandboxError.isInstance(err) && err.code === "CONFIG_INVALID") return err.message;
    throw err;
  }
  throw new Error("expected CONFIG_INVALID");
}

describe("validateSandboxIdPart", () => {
  it.each(["t1", "thread_2", "a.b-c", "UUID-1234-abcd", "..."])("accepts %j", (id) => {
    expect(validateSandboxIdPart("thread", id)).toBe(id);
  });

  it.each([".", "..", "", "a/b", "a\\b", "../x", "a:b", "a b", "é", "a\0b"])(
    "rejects %j with INVALID_ARGUMENT",
    (id) => {
      expect(() => validateSandboxIdPart("user", id)).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    },
  );

  it("names the kind of id", () => {
    expect(() => validateSandboxIdPart("thread", "a/b")).toThrow('Invalid thread id "a/b"');
  });
});

describe("validateExtraMounts", () => {
  it("normalises valid mounts", () => {
    expect(
      validateExtraMounts([{ virtualPath: "/mnt/data/", hostPath: path.join(tmp, "data", "."), readOnly: true }]),
    ).toEqual([{ virtualPath: "/mnt/data", hostPath: path.join(tmp, "data"), readOnly: true }]);
  });

  it.each([
    ["mnt/data", "must be absolute"],
    ["/mnt/../etc", "must not contain '..'"],
    ["/mnt/user-data", "overlaps the reserved path /mnt/user-data"],
    ["/mnt/user-data/extra", "overlaps the reserved path /mnt/user-data"],
    ["/mnt/skills/custom", "overlaps the reserved path /mnt/skills"],
    ["/mnt", "overlaps the reserved path /mnt/user-data"],
    ["/", "overlaps the reserved path"],
  ])("rejects the virtual path %j", (virtualPath, message) => {
    expect(
      configError(() => validateExtraMounts([{ virtualPath, hostPath: path.join(tmp, "data"), readOnly: false }])),
    ).toContain(message);
  });

  it("accepts a sibling of a reserved path that only shares its prefix", () => {
    expect(
      validateExtraMounts([{ virtualPath: "/mnt/user-data-extra", hostPath: path.join(tmp, "data"), readOnly: false }]),
    ).toHaveLength(1);
  });

  it("rejects relative, missing and non-directory host paths", () => {
    expect(
      configError(() => validateExtraMounts([{ virtualPath: "/mnt/x", hostPath: "data", readOnly: false }])),
    ).toContain("host path must be absolute");
    expect(
      configError(() =>
        validateExtraMounts([{ virtualPath: "/mnt/x", hostPath: path.join(tmp, "nope"), readOnly: false }]),
      ),
    ).toContain("does not exist");
    expect(
      configError(() =>
        validateExtraMounts([{ virtualPath: "/mnt/x", hostPath: path.join(tmp, "file.txt"), readOnly: false }]),
      ),
    ).toContain("is not a directory");
  });

  it("rejects duplicate virtual paths", () => {
    const mount = { virtualPath: "/mnt/x", hostPath: path.join(tmp, "data"), readOnly: false };
    expect(configError(() => validateExtraMounts([mount, { ...mount, virtualPath: "/mnt/x/" }]))).toContain(
      "Duplicate mount path /mnt/x",
    );
  });
});
