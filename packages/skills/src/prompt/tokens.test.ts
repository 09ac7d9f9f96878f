import { describe, expect, it } from "vitest";
import { approximateTokenCount } from "./tokens.js";

describe("approximateTokenCount", () => {
  it("returns 0 for empty text", () => {
    expect(approximateTokenCount("")).toBe(0);
  });

  it("estimates English prose near one token per short word", () => {
    expect(approximateTokenCount("Use this skill for deep research.")).toBe(8);
  });

  it("counts markup punctuation that a chars/4 rule would miss", () => {
    const xml = "<a><b>x</b></a>";
    expect(approximateTokenCount(xml)).toBeGreaterThan(Math.ceil(xml.length / 4));
  });

  it("counts each CJK character as a token", () => {
    expect(approximateTokenCount("深度研究")).toBe(4);
  });

  it("counts whitespace only through the character term", () => {
    expect(approximateTokenCount("word")).toBe(approximateTokenCount("word    ") - 1);
  });

  it("grows linearly with repeated text", () => {
    const one = approximateTokenCount("alpha beta gamma. ");
    expect(approximateTokenCount("alpha beta gamma. ".repeat(100))).toBeGreaterThanOrEqual(one * 100 - 100);
  });
});
