import { describe, expect, it } from "vitest";
import { filesystemRelativeAliases, parseMountInfo } from "./mount-aliases.js";

const TABLE = parseMountInfo(
  [
    "22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw",
    "40 22 254:16 / /data rw,relatime shared:2 - ext4 /dev/vdb rw",
    "41 22 254:16 /volumes/deer /srv/deer\\040flow rw,relatime - ext4 /dev/vdb rw",
  ].join("\n"),
);

describe("parseMountInfo", () => {
  it("reads root and mount point, unescaping octal escapes", () => {
    expect(TABLE[2]).toEqual({ root: "/volumes/deer", mountPoint: "/srv/deer flow" });
  });
});

describe("filesystemRelativeAliases", () => {
  it("has no alias on the root filesystem", () => {
    expect(filesystemRelativeAliases("/tmp/x/ws", TABLE)).toEqual([]);
  });

  it("gives the path relative to a filesystem mounted elsewhere", () => {
    expect(filesystemRelativeAliases("/data/threads/t1/ws", TABLE)).toEqual(["/threads/t1/ws"]);
  });

  it("follows a bind mount of a subtree", () => {
    expect(filesystemRelativeAliases("/srv/deer flow/t1", TABLE)).toEqual(["/volumes/deer/t1"]);
  });

  it("does not take a sibling for the mount point", () => {
    expect(filesystemRelativeAliases("/database/x", TABLE)).toEqual([]);
  });
});
