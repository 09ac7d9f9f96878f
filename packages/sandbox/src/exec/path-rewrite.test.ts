import { describe, expect, it } from "vitest";
import { HIDDEN_HOST_PATH, PathRewriter } from "./path-rewrite.js";

const HOST = "/srv/deer/t1/user-data";
const mounts = [
  { virtualPath: "/mnt/user-data", hostPath: HOST },
  { virtualPath: "/mnt/user-data/workspace", hostPath: "/srv/ws-host" },
  { virtualPath: "/mnt/skills", hostPath: "/srv/skills" },
];
const rw = new PathRewriter(mounts);

describe("PathRewriter.toHostCommand", () => {
  it("rewrites a virtual path at the start and after whitespace", () => {
    expect(rw.toHostCommand("/mnt/skills/x.sh && cat /mnt/user-data/workspace/a.txt")).toBe(
      "/srv/skills/x.sh && cat /srv/ws-host/a.txt",
    );
  });

  it("prefers the longest mount", () => {
    expect(rw.toHostCommand("ls /mnt/user-data/workspace /mnt/user-data/uploads")).toBe(
      `ls /srv/ws-host ${HOST}/uploads`,
    );
  });

  it("does not take a sibling for the mount (segment boundary)", () => {
    expect(rw.toHostCommand("ls /mnt/user-data/workspace-extra")).toBe(`ls ${HOST}/workspace-extra`);
    expect(rw.toHostCommand("ls /mnt/skills-extra/a")).toBe("ls /mnt/skills-extra/a");
  });

  it.each([
    ["X=/mnt/skills/a", "X=/srv/skills/a"],
    ["PATH=/usr/bin:/mnt/skills/bin", "PATH=/usr/bin:/srv/skills/bin"],
    ["echo $(ls /mnt/skills)", "echo $(ls /srv/skills)"],
    ["(cd /mnt/skills)", "(cd /srv/skills)"],
    ["cat '/mnt/skills/a b'", "cat '/srv/skills/a b'"],
    ['cat "/mnt/skills/a"', 'cat "/srv/skills/a"'],
    ["a;/mnt/skills/x|/mnt/skills/y>/mnt/skills/z", "a;/srv/skills/x|/srv/skills/y>/srv/skills/z"],
    ["cat</mnt/skills/in", "cat</srv/skills/in"],
    ["cp {/mnt/skills/a,/mnt/skills/b} .", "cp {/srv/skills/a,/srv/skills/b} ."],
    ["echo `ls /mnt/skills`", "echo `ls /srv/skills`"],
  ])("rewrites after a shell boundary: %s", (command, expected) => {
    expect(rw.toHostCommand(command)).toBe(expected);
  });

  it.each([
    "echo foo/mnt/skills",
    "echo $HOME/mnt/skills",
    "echo ${X}/mnt/skills",
    "curl http://h/mnt/skills",
    "echo ./mnt/skills",
  ])("leaves a path that does not start a word: %s", (command) => expect(rw.toHostCommand(command)).toBe(command));

  it("escapes host paths for the quoting they land in", () => {
    const odd = new PathRewriter([{ virtualPath: "/mnt/w", hostPath: "/srv/a b/it's $x" }]);
    expect(odd.toHostCommand("cat /mnt/w/f")).toBe("cat /srv/a\\ b/it\\'s\\ \\$x/f");
    expect(odd.toHostCommand("cat '/mnt/w/f'")).toBe("cat '/srv/a b/it'\\''s $x/f'");
    expect(odd.toHostCommand('cat "/mnt/w/f"')).toBe('cat "/srv/a b/it\'s \\$x/f"');
  });

  it("tracks quotes across escaped characters", () => {
    expect(rw.toHostCommand("echo \\' /mnt/skills")).toBe("echo \\' /srv/skills");
    expect(rw.toHostCommand('echo "a\\" /mnt/skills"')).toBe('echo "a\\" /srv/skills"');
  });

  it("rewrites paths inside heredocs and multi-line scripts", () => {
    expect(rw.toHostCommand("cat <<EOF\n/mnt/skills/a\nEOF")).toBe("cat <<EOF\n/srv/skills/a\nEOF");
  });
});

describe("PathRewriter.toHostPath", () => {
  it("maps a virtual path through the longest mount", () => {
    expect(rw.toHostPath("/mnt/user-data/workspace/sub")).toBe("/srv/ws-host/sub");
    expect(rw.toHostPath("/mnt/user-data")).toBe(HOST);
  });

  it("resolves `..` before matching so it cannot climb out", () => {
    expect(rw.toHostPath("/mnt/skills/../../etc")).toBeUndefined();
    expect(rw.toHostPath("/mnt/user-data/workspace/../uploads")).toBe(`${HOST}/uploads`);
  });

  it("returns undefined outside every mount", () => {
    expect(rw.toHostPath("/mnt/skills-extra")).toBeUndefined();
  });
});

describe("PathRewriter.toVirtualText", () => {
  it("maps host paths back, longest host path first", () => {
    expect(rw.toVirtualText(`/srv/ws-host/a.txt\n${HOST}/outputs/r.md\n/srv/skills`)).toBe(
      "/mnt/user-data/workspace/a.txt\n/mnt/user-data/outputs/r.md\n/mnt/skills",
    );
  });

  it("maps a host path followed by punctuation", () => {
    expect(rw.toVirtualText("saved to /srv/ws-host. /srv/ws-host/a.txt:3: error, /srv/skills)")).toBe(
      "saved to /mnt/user-data/workspace. /mnt/user-data/workspace/a.txt:3: error, /mnt/skills)",
    );
  });

  it("maps host paths without a start boundary, so none slips through", () => {
    expect(rw.toVirtualText("file:///srv/skills/a x=/srv/skills")).toBe("file:///mnt/skills/a x=/mnt/skills");
  });

  it("hides an unmounted sibling that shares a mount's name prefix", () => {
    const out = rw.toVirtualText("ls: '/srv/ws-host-old/secret.txt': denied; /srv/skills2/x ok");
    expect(out).toBe(`ls: '${HIDDEN_HOST_PATH}': denied; ${HIDDEN_HOST_PATH} ok`);
    expect(out).not.toContain("/srv/");
  });

  it("maps a sibling that another mount covers instead of hiding it", () => {
    expect(rw.toVirtualText(`${HOST}/workspace-extra/f`)).toBe("/mnt/user-data/workspace-extra/f");
  });

  it("keeps two mounts whose host paths are prefixes of each other apart", () => {
    const pair = new PathRewriter([
      { virtualPath: "/mnt/user-data/workspace", hostPath: "/data/ws" },
      { virtualPath: "/mnt/extra", hostPath: "/data/ws-extra" },
    ]);
    expect(pair.toVirtualText("/data/ws/a /data/ws-extra/b /data/ws-extra")).toBe(
      "/mnt/user-data/workspace/a /mnt/extra/b /mnt/extra",
    );
    expect(pair.toHostCommand("cat /mnt/extra/b /mnt/user-data/workspace/a")).toBe("cat /data/ws-extra/b /data/ws/a");
  });

  it("also maps extra spellings of a host directory", () => {
    const aliased = new PathRewriter([
      { virtualPath: "/mnt/w", hostPath: "/private/var/t/w" },
      { virtualPath: "/mnt/w", hostPath: "/var/t/w" },
    ]);
    expect(aliased.toVirtualText("/var/t/w/a /private/var/t/w/b")).toBe("/mnt/w/a /mnt/w/b");
    expect(aliased.toHostCommand("cat /mnt/w/a")).toBe("cat /private/var/t/w/a");
  });

  it("ignores a mount of the host root for masking", () => {
    const root = new PathRewriter([{ virtualPath: "/mnt/all", hostPath: "/" }]);
    expect(root.toVirtualText("/usr/bin/env")).toBe("/usr/bin/env");
  });
});

describe("PathRewriter.trimPartialHostPath", () => {
  it("drops a host path cut by the output cap", () => {
    expect(rw.trimPartialHostPath("line\n/srv/ws-h")).toBe("line\n");
    expect(rw.trimPartialHostPath("see x/srv/sk")).toBe("see x");
  });

  it("keeps ordinary endings", () => {
    expect(rw.trimPartialHostPath("done /mnt/user-data/workspace/a")).toBe("done /mnt/user-data/workspace/a");
    expect(rw.trimPartialHostPath("ls /")).toBe("ls /");
  });
});
