import { describe, expect, it } from "vitest";
import { GatewayError } from "../errors.js";
import { MAX_FILENAME_BYTES } from "./safe-filename.js";
import { claimUniqueName } from "./unique-name.js";

describe("claimUniqueName", () => {
  it("numbers repeats before the last extension, skipping names already claimed", () => {
    const claimed = new Set<string>();
    expect(
      ["data.txt", "data.txt", "data_1.txt", "data.txt", "a.tar.gz", "a.tar.gz", "README", "README"].map((n) =>
        claimUniqueName(n, claimed),
      ),
    ).toEqual(["data.txt", "data_1.txt", "data_1_1.txt", "data_2.txt", "a.tar.gz", "a.tar_1.gz", "README", "README_1"]);
  });

  it("shortens the stem, never splitting a character, to stay within the name limit", () => {
    const long = `a${"é".repeat(125)}.md`; // 254 bytes; "_1.md" leaves 250 for the stem, an odd cut inside an "é"
    const claimed = new Set([long]);
    const next = claimUniqueName(long, claimed);
    expect(Buffer.byteLength(next, "utf8")).toBeLessThanOrEqual(MAX_FILENAME_BYTES);
    expect(next).toBe(`a${"é".repeat(124)}_1.md`);
    expect(claimed.has(next)).toBe(true);
  });

  it("refuses when the extension leaves no room for a suffix", () => {
    const name = `a.${"x".repeat(252)}`;
    expect(() => claimUniqueName(name, new Set([name]))).toThrow(GatewayError);
  });
});
