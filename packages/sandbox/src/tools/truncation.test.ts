import { describe, expect, it } from "vitest";
import {
  formatWriteFileFailure,
  truncateBashOutput,
  truncateLsOutput,
  truncateReadFileOutput,
  truncateWriteFileError,
} from "./truncation.js";

describe("truncateBashOutput", () => {
  it("returns output at exactly the limit unchanged", () => {
    const out = "x".repeat(100);
    expect(truncateBashOutput(out, 100)).toBe(out);
  });

  it("middle-truncates one character over the limit to at most the limit", () => {
    const out = `${"a".repeat(60)}${"b".repeat(41)}`;
    const result = truncateBashOutput(out, 100);
    expect(result.length).toBeLessThanOrEqual(100);
    expect(result).toMatch(/^a+\n\.\.\. \[middle truncated: \d+ chars skipped\] \.\.\.\nb+$/);
  });

  it("reports the exact number of skipped characters and keeps head and tail halves", () => {
    const out = "H".repeat(5000) + "M".repeat(10_000) + "T".repeat(5000);
    const result = truncateBashOutput(out, 1000);
    const marker = /\n\.\.\. \[middle truncated: (\d+) chars skipped\] \.\.\.\n/.exec(result);
    expect(marker).not.toBeNull();
    const [head, tail] = result.split(marker![0]) as [string, string];
    expect(head.length + tail.length + Number(marker![1])).toBe(out.length);
    expect(Math.abs(head.length - tail.length)).toBeLessThanOrEqual(1);
    expect(head).toMatch(/^H+$/);
    expect(tail).toMatch(/^T+$/);
    expect(result.length).toBeLessThanOrEqual(1000);
  });

  it("keeps a trailing exit code marker intact", () => {
    const out = `${"y".repeat(5000)}\nExit Code: 2`;
    const result = truncateBashOutput(out, 200);
    expect(result.endsWith("\nExit Code: 2")).toBe(true);
    expect(result.length).toBeLessThanOrEqual(200);
  });

  it("disables truncation with 0", () => {
    const out = "z".repeat(100_000);
    expect(truncateBashOutput(out, 0)).toBe(out);
  });

  it("raises limits below 32 characters to 32", () => {
    const result = truncateBashOutput("q".repeat(500), 5);
    expect(result.length).toBe(32);
  });

  it("never splits a surrogate pair", () => {
    const out = "😀".repeat(3000);
    const result = truncateBashOutput(out, 1001);
    expect(result.length).toBeLessThanOrEqual(1001);
    expect(() => encodeURIComponent(result)).not.toThrow();
  });
});

describe("truncateLsOutput", () => {
  it("head-truncates with DeerFlow's notice and stays within the limit", () => {
    const out = Array.from({ length: 2000 }, (_, i) => `/mnt/user-data/workspace/f${i}`).join("\n");
    const result = truncateLsOutput(out, 20_000);
    expect(result.length).toBeLessThanOrEqual(20_000);
    const kept = result.indexOf("\n... [truncated: ");
    expect(result.slice(kept)).toBe(
      `\n... [truncated: showing first ${kept} of ${out.length} chars. Use a more specific path to see fewer results] ...`,
    );
    expect(out.startsWith(result.slice(0, kept))).toBe(true);
  });

  it("leaves output at the limit alone", () => {
    expect(truncateLsOutput("abc", 3)).toBe("abc");
  });

  it("cuts hard when the limit cannot hold the notice", () => {
    expect(truncateLsOutput("abcdefghij".repeat(10), 10)).toBe("abcdefghij");
  });
});

describe("truncateReadFileOutput", () => {
  it("uses the start_line/end_line hint", () => {
    const result = truncateReadFileOutput("r".repeat(60_000), 50_000);
    expect(result.length).toBeLessThanOrEqual(50_000);
    expect(result).toMatch(
      /\n\.\.\. \[truncated: showing first \d+ of 60000 chars\. Use start_line\/end_line to read a specific range\] \.\.\.$/,
    );
  });
});

describe("truncateWriteFileError", () => {
  it("middle-truncates with the write_file marker", () => {
    const result = truncateWriteFileError("e".repeat(5000));
    expect(result.length).toBeLessThanOrEqual(2000);
    expect(result).toContain("\n... [write_file error truncated: ");
  });
});

describe("formatWriteFileFailure", () => {
  it("keeps the header and bounds the detail", () => {
    const result = formatWriteFileFailure("/mnt/user-data/workspace/a.txt", `SandboxError: ${"d".repeat(10_000)}`);
    expect(result.startsWith("Error: Failed to write file '/mnt/user-data/workspace/a.txt': SandboxError: ")).toBe(
      true,
    );
    expect(result.length).toBeLessThanOrEqual(2000);
  });
});
