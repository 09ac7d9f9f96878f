import { describe, expect, it } from "vitest";
import { GatewayError } from "../errors.js";
import { existingFilename, uploadFilename } from "./safe-filename.js";

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return GatewayError.isInstance(err) ? err.code : "other";
  }
  return undefined;
}

describe("uploadFilename", () => {
  it.each([
    ["report.pdf", "report.pdf"],
    ["../../etc/passwd", "passwd"],
    ["/abs/path/data.csv", "data.csv"],
    ["C:\\Users\\me\\notes.txt", "notes.txt"],
    ["  spaced name.md ", "spaced name.md"],
    ["résumé 2024.docx", "résumé 2024.docx"],
  ])("stores %j as %j", (raw, safe) => {
    expect(uploadFilename(raw)).toBe(safe);
  });

  it.each(["", "..", ".", "dir/", "a/..", ".env", ".upload-x.part", "a\0b", "tab\there", "x".repeat(256)])("rejects %j", (raw) => {
    expect(codeOf(() => uploadFilename(raw))).toBe("INVALID_FILENAME");
  });
});

describe("existingFilename", () => {
  it("accepts a plain name", () => {
    expect(existingFilename("a.txt")).toBe("a.txt");
  });

  it.each(["..", "../x", "a/b", "a\\b"])("treats %j as traversal", (raw) => {
    expect(codeOf(() => existingFilename(raw))).toBe("PATH_TRAVERSAL");
  });

  it.each(["", ".", ".hidden", "a\0b"])("rejects %j as an invalid name", (raw) => {
    expect(codeOf(() => existingFilename(raw))).toBe("INVALID_FILENAME");
  });
});
