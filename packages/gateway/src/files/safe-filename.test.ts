import { describe, expect, it } from "vitest";
import { GatewayError } from "../errors.js";
import { clientBasename, existingFilename, uploadFilename } from "./safe-filename.js";

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

  it.each([
    ["invoice\u202Efdp.exe", "invoicefdp.exe"],
    ["\u2066a\u2069\u200Bb\uFEFF\u00AD.txt", "ab.txt"],
    ["tag\u{E0041}\u{E0042}s.md", "tags.md"],
    ["con", "_con"],
    ["CON.txt", "_CON.txt"],
    ["Nul .tar.gz", "_Nul .tar.gz"],
    ["lpt9.log", "_lpt9.log"],
    ["COM\u00b9", "_COM\u00b9"],
    ["conin$.x", "_conin$.x"],
    ["a:b:c.txt", "a_b_c.txt"],
    ["C:report.txt", "C_report.txt"],
  ])("neutralises %j to %j", (raw, safe) => {
    expect(uploadFilename(raw)).toBe(safe);
  });

  it.each(["console.md", "com10.txt", "lpt.txt", "my.con.txt", "a\u202Fb.png", "\u{1F600}.png"])("keeps %j", (raw) => {
    expect(uploadFilename(raw)).toBe(raw);
  });

  it.each([
    "",
    "..",
    ".",
    "dir/",
    "a/..",
    ".env",
    ".upload-x.part",
    "a\0b",
    "tab\there",
    "x".repeat(256),
    "\u200B",
    "\u202E.env",
    "c1\u0085.txt",
    "ls\u2028.txt",
  ])("rejects %j", (raw) => {
    expect(codeOf(() => uploadFilename(raw))).toBe("INVALID_FILENAME");
  });
});

describe("clientBasename", () => {
  it("strips directories and nothing else", () => {
    expect(clientBasename("a/b\\ c:d\u202E.txt ")).toBe(" c:d\u202E.txt ");
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
