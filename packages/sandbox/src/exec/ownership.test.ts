import { describe, expect, it } from "vitest";
import { outermostDirectories, PER_SANDBOX_UID_BASE, PER_SANDBOX_UID_SPAN, perSandboxIdentity } from "./ownership.js";

describe("outermostDirectories", () => {
  it("drops nested and duplicate directories", () => {
    expect(outermostDirectories(["/a/b/ws", "/a/b", "/a/b", "/a/bc", "/z"])).toEqual(["/a/b", "/a/bc", "/z"]);
  });

  it("returns nothing for nothing", () => {
    expect(outermostDirectories([])).toEqual([]);
  });
});

describe("perSandboxIdentity", () => {
  const mounts = (ws: string) => [
    { virtualPath: "/mnt/skills", hostPath: "/srv/skills", readOnly: true },
    { virtualPath: "/mnt/user-data/workspace", hostPath: ws, readOnly: false },
  ];

  it("is stable for the same writable mounts and ignores read-only ones", () => {
    const a = perSandboxIdentity(mounts("/srv/t1/workspace"));
    expect(perSandboxIdentity(mounts("/srv/t1/workspace"))).toEqual(a);
    expect(
      perSandboxIdentity([...mounts("/srv/t1/workspace"), { virtualPath: "/mnt/ro", hostPath: "/x", readOnly: true }]),
    ).toEqual(a);
    expect(a.gid).toBe(a.uid);
  });

  it("gives different threads different uids inside the range", () => {
    const uids = new Set(Array.from({ length: 200 }, (_, i) => perSandboxIdentity(mounts(`/srv/t${i}/workspace`)).uid));
    expect(uids.size).toBe(200);
    for (const uid of uids) {
      expect(uid).toBeGreaterThanOrEqual(PER_SANDBOX_UID_BASE);
      expect(uid).toBeLessThan(PER_SANDBOX_UID_BASE + PER_SANDBOX_UID_SPAN);
    }
  });
});
