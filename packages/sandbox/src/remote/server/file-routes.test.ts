import { describe, expect, it } from "vitest";
import { decodeBase64, listDepth } from "./file-routes.js";

describe("decodeBase64", () => {
  it("decodes canonical base64", () => {
    expect(Array.from(decodeBase64("AP8A"))).toEqual([0, 255, 0]);
    expect(Array.from(decodeBase64("AQ=="))).toEqual([1]);
    expect(decodeBase64("").byteLength).toBe(0);
  });

  it.each(["AP8", "AP8*", "A=P8", "AP8A===", "AP 8A"])("rejects %j with INVALID_ARGUMENT", (text) => {
    expect(() => decodeBase64(text)).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
  });

  it("decodes tens of megabytes without exhausting the regex stack", () => {
    const bytes = Buffer.alloc(24 * 1024 * 1024, 7);
    expect(decodeBase64(bytes.toString("base64")).byteLength).toBe(bytes.byteLength);
  });
});

describe("listDepth", () => {
  it("prefers max_depth, then 2 when recursive, then 1", () => {
    expect(listDepth({ path: "/", max_depth: 5, recursive: false })).toBe(5);
    expect(listDepth({ path: "/", recursive: true })).toBe(2);
    expect(listDepth({ path: "/" })).toBe(1);
  });
});
