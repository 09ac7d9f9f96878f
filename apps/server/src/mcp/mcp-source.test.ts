import path from "node:path";
import { describe, expect, it } from "vitest";
import { threadMcpWorkDir } from "./mcp-source.js";

describe("threadMcpWorkDir", () => {
  const dir = threadMcpWorkDir("/srv/data");

  it("pins a thread's stdio sessions inside its user data", () => {
    expect(dir({ threadId: "t-1", userId: "alice" })).toBe(
      path.join("/srv/data", "users", "alice", "threads", "t-1", "user-data", ".mcp", "tmp"),
    );
    expect(dir({ threadId: "t-1", userId: undefined })).toContain(path.join("users", "default", "threads", "t-1"));
  });

  it("gives no folder for ids that are not single safe path segments", () => {
    for (const [threadId, userId] of [
      ["..", "alice"],
      ["a/b", "alice"],
      ["t", "../../etc"],
      ["t", "."],
      ["", "alice"],
    ] as const)
      expect(dir({ threadId, userId })).toBeUndefined();
  });
});
