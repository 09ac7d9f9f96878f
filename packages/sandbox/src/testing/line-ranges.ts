/** `readFile` line ranges: 1-based, inclusive, single-sided, joined with `\n`. */
import { expectSandboxError, type Kit } from "./context.js";

const FIVE_LINES = "l1\nl2 ü\nl3\nl4\nl5\n";

/** Registers the line-range checks. */
export function lineRangeTests(kit: Kit): void {
  const { expect } = kit;
  const file = async (label: string, content = FIVE_LINES): Promise<string> => {
    const path = `${kit.dir(label)}/lines.txt`;
    await kit.sandbox().writeFile(path, content);
    return path;
  };

  kit.test("returns the inclusive range startLine..endLine", async () => {
    const path = await file("both");
    expect(await kit.sandbox().readFile(path, { startLine: 2, endLine: 4 })).toBe("l2 ü\nl3\nl4");
  });

  kit.test("returns one line when startLine equals endLine", async () => {
    const path = await file("single");
    expect(await kit.sandbox().readFile(path, { startLine: 3, endLine: 3 })).toBe("l3");
  });

  kit.test("reads to the end with only startLine", async () => {
    const path = await file("start-only");
    expect(await kit.sandbox().readFile(path, { startLine: 4 })).toBe("l4\nl5");
  });

  kit.test("reads from the start with only endLine", async () => {
    const path = await file("end-only");
    expect(await kit.sandbox().readFile(path, { endLine: 2 })).toBe("l1\nl2 ü");
  });

  kit.test("stops at the last line when endLine is past it", async () => {
    const path = await file("end-past");
    expect(await kit.sandbox().readFile(path, { startLine: 4, endLine: 99 })).toBe("l4\nl5");
  });

  kit.test("counts lines of a file without a trailing newline", async () => {
    const path = await file("no-newline", "a\nb\nc");
    expect(await kit.sandbox().readFile(path, { startLine: 3 })).toBe("c");
    expect(await kit.sandbox().readFile(path, { startLine: 1, endLine: 2 })).toBe("a\nb");
  });

  kit.test("treats \\r\\n as a line break and drops it from the joined lines", async () => {
    const path = await file("crlf", "a\r\nb\r\nc\r\n");
    expect(await kit.sandbox().readFile(path, { startLine: 2, endLine: 3 })).toBe("b\nc");
  });

  kit.test("returns nothing when startLine is past the end", async () => {
    const path = await file("start-past");
    expect(await kit.sandbox().readFile(path, { startLine: 42 })).toBe("");
  });

  for (const [label, range] of [
    ["startLine 0", { startLine: 0 }],
    ["endLine 0", { endLine: 0 }],
    ["a negative startLine", { startLine: -1 }],
    ["a fractional startLine", { startLine: 1.5 }],
    ["startLine after endLine", { startLine: 4, endLine: 2 }],
  ] as const) {
    kit.test(`rejects ${label} with INVALID_ARGUMENT`, async () => {
      const path = await file(`bad-${label}`);
      await expectSandboxError(kit, kit.sandbox().readFile(path, range), "INVALID_ARGUMENT");
    });
  }
}
