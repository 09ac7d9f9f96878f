import { describe, expect, it } from "vitest";
import {
  markdownOutline,
  OUTLINE_LINE_CHARS,
  OUTLINE_MAX_HEADINGS,
  previewLines,
  PREVIEW_LINES,
} from "./uploads-outline.js";

describe("markdownOutline", () => {
  it("lists ATX headings with 1-based line numbers, ignoring fenced code and non-headings", () => {
    const text = [
      "# Annual report", // 1
      "",
      "#hashtag is not a heading",
      "## Revenue ##", // 4
      "```python",
      "# a comment, not a heading",
      "```",
      "~~~",
      "## still code",
      "~~~",
      "   ### Costs", // 11
      "    #### indented code, not a heading",
    ].join("\n");
    expect(markdownOutline(text)).toEqual({
      headings: [
        { line: 1, text: "# Annual report" },
        { line: 4, text: "## Revenue" },
        { line: 11, text: "### Costs" },
      ],
      more: 0,
    });
  });

  it("keeps the first headings, counts the rest and cuts long ones", () => {
    const text = Array.from(
      { length: OUTLINE_MAX_HEADINGS + 7 },
      (_, i) => `## Section ${i + 1} ${"x".repeat(i === 0 ? 500 : 0)}`,
    ).join("\n");
    const { headings, more } = markdownOutline(text);
    expect(headings).toHaveLength(OUTLINE_MAX_HEADINGS);
    expect(more).toBe(7);
    expect(headings[0]!.text.length).toBe(OUTLINE_LINE_CHARS);
    expect(headings[0]!.text.endsWith("…")).toBe(true);
    expect(headings[1]).toEqual({ line: 2, text: "## Section 2" });
  });
});

describe("previewLines", () => {
  it("keeps the first lines, cut, without trailing blank lines", () => {
    expect(previewLines("a,b\r\n1,2\n\n")).toEqual(["a,b", "1,2"]);
    const many = Array.from({ length: 50 }, (_, i) => `line ${i}`).join("\n");
    expect(previewLines(many)).toHaveLength(PREVIEW_LINES);
    expect(previewLines("y".repeat(10_000))[0]!.length).toBe(OUTLINE_LINE_CHARS);
  });
});
