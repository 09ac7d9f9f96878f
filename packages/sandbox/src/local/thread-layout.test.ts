import path from "node:path";
import { describe, expect, it } from "vitest";
import { USER_DATA_ROOT } from "../limits.js";
import { USER_DATA_AREAS, threadUserDataDir } from "./thread-layout.js";

describe("thread layout", () => {
  it("puts a thread's user data under users/<user>/threads/<thread>/user-data", () => {
    expect(threadUserDataDir("/srv/deerflow", { userId: "alice", threadId: "t1" })).toBe(
      path.join("/srv/deerflow", "users", "alice", "threads", "t1", "user-data"),
    );
  });

  it("names the three areas mounted below /mnt/user-data", () => {
    expect(USER_DATA_AREAS).toEqual(["workspace", "uploads", "outputs"]);
    expect(USER_DATA_ROOT).toBe("/mnt/user-data");
  });
});
