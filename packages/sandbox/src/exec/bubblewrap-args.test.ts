import { describe, expect, it } from "vitest";
import { buildBubblewrapInvocation, type BubblewrapInvocationInput } from "./bubblewrap-args.js";

const base: BubblewrapInvocationInput = {
  tools: { bwrap: "/usr/bin/bwrap", prlimit: "/usr/bin/prlimit", setpriv: "/usr/bin/setpriv" },
  layout: {
    rootEntries: [{ name: "bin", symlinkTarget: "usr/bin" }, { name: "lib" }],
    etcPaths: ["/etc/passwd", "/etc/ssl/certs"],
  },
  mounts: [
    { virtualPath: "/mnt/user-data/workspace", hostPath: "/h/ws", readOnly: false },
    { virtualPath: "/mnt/skills", hostPath: "/h/skills", readOnly: true },
    { virtualPath: "/mnt/user-data", hostPath: "/h/ud", readOnly: false },
  ],
  cwd: "/mnt/user-data/workspace",
  env: { PATH: "/usr/bin:/bin", HOME: "/mnt/user-data/workspace" },
  shell: "/bin/bash",
  command: "echo 'hi' && ls",
  network: false,
  limits: {
    cpuSeconds: 10,
    memoryBytes: 1 << 30,
    fileSizeBytes: 1 << 20,
    openFiles: 128,
    processes: 64,
    tmpBytes: 1 << 26,
  },
  processLimit: true,
  hardLimits: {},
};

/** Index of `needle` as a contiguous run in `hay`, or -1. */
function indexOfRun(hay: readonly string[], needle: readonly string[]): number {
  for (let i = 0; i + needle.length <= hay.length; i += 1) if (needle.every((n, j) => hay[i + j] === n)) return i;
  return -1;
}

describe("buildBubblewrapInvocation", () => {
  it("wraps bwrap in prlimit with every limit and no timeout wrapper", () => {
    const { file, args } = buildBubblewrapInvocation(base);
    expect(file).toBe("/usr/bin/prlimit");
    expect(args.slice(0, 6)).toEqual([
      "--cpu=10:10",
      `--data=${1 << 30}:${1 << 30}`,
      `--fsize=${1 << 20}:${1 << 20}`,
      "--nofile=128:128",
      "--nproc=64:64",
      "--",
    ]);
    expect(args[6]).toBe("/usr/bin/bwrap");
    expect(args).not.toContain("timeout");
  });

  it("recreates the system directories and binds only allowlisted /etc entries", () => {
    const { args } = buildBubblewrapInvocation(base);
    expect(indexOfRun(args, ["--ro-bind", "/usr", "/usr"])).toBeGreaterThan(0);
    expect(indexOfRun(args, ["--symlink", "usr/bin", "/bin"])).toBeGreaterThan(0);
    expect(indexOfRun(args, ["--ro-bind", "/lib", "/lib"])).toBeGreaterThan(0);
    expect(indexOfRun(args, ["--ro-bind-try", "/etc/ssl/certs", "/etc/ssl/certs"])).toBeGreaterThan(0);
    expect(args).not.toContain("/etc");
  });

  it("mounts a size-capped private /tmp before the mounts, parents before children", () => {
    const { args } = buildBubblewrapInvocation(base);
    const tmp = indexOfRun(args, ["--size", String(1 << 26), "--tmpfs", "/tmp"]);
    const parent = indexOfRun(args, ["--bind", "/h/ud", "/mnt/user-data"]);
    const child = indexOfRun(args, ["--bind", "/h/ws", "/mnt/user-data/workspace"]);
    const skills = indexOfRun(args, ["--ro-bind", "/h/skills", "/mnt/skills"]);
    expect(tmp).toBeGreaterThan(0);
    expect(parent).toBeGreaterThan(tmp);
    expect(child).toBeGreaterThan(parent);
    expect(skills).toBeGreaterThan(tmp);
  });

  it("unshares everything and shares the network only on request", () => {
    const offline = buildBubblewrapInvocation(base).args;
    expect(indexOfRun(offline, ["--unshare-all", "--unshare-user", "--disable-userns", "--as-pid-1"])).toBeGreaterThan(
      0,
    );
    expect(offline).not.toContain("--share-net");
    expect(buildBubblewrapInvocation({ ...base, network: true }).args).toContain("--share-net");
  });

  it("clears the environment, sets the given one and ends with the shell command", () => {
    const { args } = buildBubblewrapInvocation(base);
    expect(
      indexOfRun(args, ["--die-with-parent", "--new-session", "--hostname", "sandbox", "--clearenv"]),
    ).toBeGreaterThan(0);
    expect(
      indexOfRun(args, ["--setenv", "HOME", "/mnt/user-data/workspace", "--setenv", "PATH", "/usr/bin:/bin"]),
    ).toBeGreaterThan(0);
    expect(args.slice(-6)).toEqual(["--chdir", "/mnt/user-data/workspace", "--", "/bin/bash", "-c", "echo 'hi' && ls"]);
  });

  it("as root, stages the mounts in a privileged namespace and drops to the sandbox uid", () => {
    const { file, args } = buildBubblewrapInvocation({ ...base, dropTo: { uid: 65534, gid: 65534 } });
    expect(file).toBe("/usr/bin/prlimit");
    const outer = args.indexOf("/usr/bin/bwrap");
    const setpriv = args.indexOf("/usr/bin/setpriv");
    const inner = args.indexOf("/usr/bin/bwrap", setpriv);
    expect(args.slice(outer, outer + 6)).toEqual(["/usr/bin/bwrap", "--dev-bind", "/", "/", "--tmpfs", "/tmp"]);
    const staged = (flag: string, host: string): string => {
      const at = indexOfRun(args, [flag, host]);
      expect(at).toBeGreaterThan(outer);
      expect(at).toBeLessThan(setpriv);
      return args[at + 2] as string;
    };
    const userData = staged("--bind", "/h/ud");
    const skills = staged("--ro-bind", "/h/skills");
    expect(userData).toMatch(/^\/tmp\/\d+$/);
    expect(args.slice(setpriv, setpriv + 5)).toEqual([
      "/usr/bin/setpriv",
      "--reuid=65534",
      "--regid=65534",
      "--clear-groups",
      "--",
    ]);
    expect(inner).toBe(setpriv + 5);
    // the sandbox binds from the stage, never from host paths
    expect(indexOfRun(args, ["--bind", userData, "/mnt/user-data"])).toBeGreaterThan(inner);
    expect(indexOfRun(args, ["--ro-bind", skills, "/mnt/skills"])).toBeGreaterThan(inner);
    expect(args.slice(inner).some((a) => a.startsWith("/h/"))).toBe(false);
  });

  it("runs bwrap directly when prlimit is missing", () => {
    const { file, args } = buildBubblewrapInvocation({ ...base, tools: { bwrap: "/usr/bin/bwrap" } });
    expect(file).toBe("/usr/bin/bwrap");
    expect(args.some((a) => a.startsWith("--cpu"))).toBe(false);
  });

  it("omits the process limit when asked", () => {
    expect(buildBubblewrapInvocation({ ...base, processLimit: false }).args.some((a) => a.startsWith("--nproc"))).toBe(
      false,
    );
  });

  it("reports the host directories it binds, for masking", () => {
    expect(buildBubblewrapInvocation(base).hostAliases).toContainEqual({
      virtualPath: "/mnt/skills",
      hostPath: "/h/skills",
    });
  });
});
