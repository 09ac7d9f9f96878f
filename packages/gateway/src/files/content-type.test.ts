import { describe, expect, it } from "vitest";
import { contentDisposition, contentTypeFor, isActiveContent } from "./content-type.js";

describe("contentTypeFor", () => {
  it.each([
    ["report.md", "text/markdown; charset=utf-8"],
    ["chart.PNG", "image/png"],
    ["data.csv", "text/csv; charset=utf-8"],
    ["page.html", "text/html; charset=utf-8"],
    ["x.skill", "application/zip"],
    ["noext", "application/octet-stream"],
    ["archive.weird", "application/octet-stream"],
  ])("types %s as %s", (name, type) => {
    expect(contentTypeFor(name)).toBe(type);
  });
});

describe("isActiveContent", () => {
  it("flags HTML, SVG and XML only", () => {
    expect(isActiveContent("text/html; charset=utf-8")).toBe(true);
    expect(isActiveContent("image/svg+xml")).toBe(true);
    expect(isActiveContent("application/xml; charset=utf-8")).toBe(true);
    expect(isActiveContent("text/markdown; charset=utf-8")).toBe(false);
    expect(isActiveContent("image/png")).toBe(false);
  });
});

describe("contentDisposition", () => {
  it("gives an ASCII fallback and the exact UTF-8 name", () => {
    expect(contentDisposition("attachment", 'rapport "final" été.md')).toBe(
      `attachment; filename="rapport _final_ _t_.md"; filename*=UTF-8''rapport%20%22final%22%20%C3%A9t%C3%A9.md`,
    );
  });

  it("encodes characters that would end the parameter", () => {
    expect(contentDisposition("inline", "a'b(c).txt")).toBe(
      `inline; filename="a'b(c).txt"; filename*=UTF-8''a%27b%28c%29.txt`,
    );
  });
});
