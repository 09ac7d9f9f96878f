import { describe, expect, it } from "vitest";
import { GatewayError } from "../errors.js";
import { parseUserDataPath } from "./virtual-path.js";

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return GatewayError.isInstance(err) ? err.code : "other";
  }
  return undefined;
}

describe("parseUserDataPath", () => {
  it("accepts the path with or without the leading slash and normalises it", () => {
    expect(parseUserDataPath("mnt/user-data/outputs/x.skill")).toEqual({
      virtualPath: "/mnt/user-data/outputs/x.skill",
      area: "outputs",
      segments: ["x.skill"],
      top: "outputs",
    });
    expect(parseUserDataPath("/mnt//user-data/./uploads/a/b.md").virtualPath).toBe("/mnt/user-data/uploads/a/b.md");
  });

  it("accepts the user-data root itself, without an area", () => {
    expect(parseUserDataPath("/mnt/user-data")).toMatchObject({ area: undefined, top: undefined, segments: [] });
  });

  it("leaves names other than the three folders without an area", () => {
    expect(parseUserDataPath("/mnt/user-data/secrets/x")).toMatchObject({ area: undefined, top: "secrets" });
  });

  it.each(["/etc/passwd", "mnt/user-dataX/a", "/mnt/other", "", "../mnt/user-data/outputs/x", "C:\\mnt\\user-data"])(
    "rejects %j as outside the user data",
    (p) => {
      expect(codeOf(() => parseUserDataPath(p))).toBe("INVALID_PATH");
    },
  );

  it.each([
    "/mnt/user-data/../etc/passwd",
    "/mnt/user-data/outputs/../../x",
    "/mnt/user-data/outputs/a\\..\\..\\b",
    "mnt/user-data/..",
  ])("rejects traversal in %j", (p) => {
    expect(codeOf(() => parseUserDataPath(p))).toBe("PATH_TRAVERSAL");
  });

  it("rejects NUL bytes", () => {
    expect(codeOf(() => parseUserDataPath("/mnt/user-data/outputs/a\0.md"))).toBe("INVALID_PATH");
  });

  it("allows dots inside names", () => {
    expect(parseUserDataPath("/mnt/user-data/outputs/..hidden/v1..2.txt").segments).toEqual(["..hidden", "v1..2.txt"]);
  });
});
