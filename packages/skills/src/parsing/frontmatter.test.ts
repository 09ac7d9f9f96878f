import { describe, expect, it } from "vitest";
import { splitFrontmatter } from "./frontmatter.js";

describe("splitFrontmatter", () => {
  it("splits yaml and body", () => {
    expect(splitFrontmatter("---\nname: a\n---\n# Body\n")).toEqual({
      yaml: "name: a",
      body: "# Body\n",
      yamlStartLine: 2,
    });
  });

  it("accepts CRLF line endings", () => {
    expect(splitFrontmatter("---\r\nname: a\r\n---\r\nbody")?.yaml).toBe("name: a");
  });

  it("accepts a UTF-8 BOM", () => {
    expect(splitFrontmatter("\uFEFF---\nname: a\n---\n")?.yaml).toBe("name: a");
  });

  it("accepts a closing fence at end of file without a newline", () => {
    expect(splitFrontmatter("---\nname: a\n---")).toEqual({ yaml: "name: a", body: "", yamlStartLine: 2 });
  });

  it("accepts an empty frontmatter block", () => {
    expect(splitFrontmatter("---\n---\nbody")?.yaml).toBe("");
  });

  it("returns null without an opening fence", () => {
    expect(splitFrontmatter("\n---\nname: a\n---\n")).toBeNull();
    expect(splitFrontmatter("name: a\n")).toBeNull();
  });

  it("returns null without a closing fence", () => {
    expect(splitFrontmatter("---\nname: a\n")).toBeNull();
  });

  it("does not treat a longer dash line as a fence", () => {
    expect(splitFrontmatter("---\nname: a\n----\nx: 1\n---\n")?.yaml).toBe("name: a\n----\nx: 1");
  });
});
