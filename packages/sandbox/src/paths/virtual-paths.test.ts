import { describe, expect, it } from "vitest";
import { SandboxError } from "../errors.js";
import type { Mount } from "../mount.js";
import { hostToVirtual, joinVirtual, matchMount, mountsBelow, normalizeVirtualPath } from "./virtual-paths.js";

const mounts: Mount[] = [
  { virtualPath: "/mnt/user-data/workspace", hostPath: "/srv/t/user-data/workspace", readOnly: false },
  { virtualPath: "/mnt/user-data/uploads", hostPath: "/srv/t/user-data/uploads", readOnly: false },
  { virtualPath: "/mnt/skills", hostPath: "/srv/skills", readOnly: true },
  { virtualPath: "/mnt/skills/public", hostPath: "/srv/public-skills", readOnly: true },
];

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return SandboxError.isInstance(err) ? err.code : "not-a-sandbox-error";
  }
  return undefined;
}

describe("normalizeVirtualPath", () => {
  it("collapses repeated slashes, dot segments and a trailing slash", () => {
    expect(normalizeVirtualPath("/mnt//user-data/./workspace/a/")).toBe("/mnt/user-data/workspace/a");
  });

  it.each([
    "/mnt/user-data/workspace/../../etc/passwd",
    "/mnt/user-data/workspace/..",
    "../etc",
    "/mnt/user-data/workspace/a\\..\\..\\etc",
    "/mnt/user-data/workspace\\..",
    "..\\x",
  ])("rejects the traversal %s with PATH_ESCAPE", (input) => {
    expect(() => normalizeVirtualPath(input)).toThrow("Access denied: path traversal detected");
    expect(codeOf(() => normalizeVirtualPath(input))).toBe("PATH_ESCAPE");
  });

  it.each([
    "/mnt/user-data/workspace/%2e%2e/x",
    "/mnt/user-data/workspace/..%2f..",
    "/mnt/user-data/workspace/...",
    "/mnt/user-data/workspace/..a",
  ])("keeps the literal name %s (encoded or longer dots are not traversal)", (input) => {
    expect(normalizeVirtualPath(input)).toBe(input);
  });

  it("rejects relative and empty paths with PATH_NOT_ALLOWED", () => {
    expect(codeOf(() => normalizeVirtualPath("workspace/a"))).toBe("PATH_NOT_ALLOWED");
    expect(codeOf(() => normalizeVirtualPath(""))).toBe("PATH_NOT_ALLOWED");
  });

  it("rejects NUL characters", () => {
    expect(codeOf(() => normalizeVirtualPath("/mnt/user-data/workspace/a\0b"))).toBe("INVALID_ARGUMENT");
  });
});

describe("matchMount", () => {
  it("picks the longest mount prefix", () => {
    const match = matchMount(mounts, "/mnt/skills/public/pdf/SKILL.md");
    expect(match?.mount.virtualPath).toBe("/mnt/skills/public");
    expect(match?.relative).toBe("pdf/SKILL.md");
  });

  it("matches a mount root with an empty relative path", () => {
    expect(matchMount(mounts, "/mnt/user-data/workspace")?.relative).toBe("");
  });

  it("does not match a sibling that only shares a string prefix", () => {
    expect(matchMount(mounts, "/mnt/user-data/workspace-extra/a")).toBeUndefined();
    expect(matchMount(mounts, "/mnt/skillsX")).toBeUndefined();
  });

  it("returns undefined outside every mount", () => {
    expect(matchMount(mounts, "/etc/passwd")).toBeUndefined();
    expect(matchMount(mounts, "/mnt/user-data")).toBeUndefined();
  });
});

describe("mountsBelow", () => {
  it("lists the mounts nested strictly below a directory", () => {
    expect(mountsBelow(mounts, "/mnt/skills").map((m) => m.virtualPath)).toEqual(["/mnt/skills/public"]);
    expect(
      mountsBelow(mounts, "/mnt/user-data")
        .map((m) => m.virtualPath)
        .sort(),
    ).toEqual(["/mnt/user-data/uploads", "/mnt/user-data/workspace"]);
    expect(mountsBelow(mounts, "/mnt/user-data/workspace")).toEqual([]);
  });
});

describe("hostToVirtual", () => {
  it("maps a host path back through the longest host root", () => {
    expect(hostToVirtual(mounts, "/srv/t/user-data/workspace/a/b.txt")).toBe("/mnt/user-data/workspace/a/b.txt");
    expect(hostToVirtual(mounts, "/srv/public-skills/pdf")).toBe("/mnt/skills/public/pdf");
    expect(hostToVirtual(mounts, "/srv/skills")).toBe("/mnt/skills");
  });

  it("respects segment boundaries on the host side", () => {
    expect(hostToVirtual(mounts, "/srv/t/user-data/workspace-extra/a")).toBeUndefined();
    expect(hostToVirtual(mounts, "/srv/skills2/a")).toBeUndefined();
  });

  it("returns undefined for host paths outside every mount", () => {
    expect(hostToVirtual(mounts, "/etc/passwd")).toBeUndefined();
  });
});

describe("joinVirtual", () => {
  it("joins without doubling slashes", () => {
    expect(joinVirtual("/", "a")).toBe("/a");
    expect(joinVirtual("/a", "b/c")).toBe("/a/b/c");
    expect(joinVirtual("/a", "")).toBe("/a");
  });
});
