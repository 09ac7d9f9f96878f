/**
 * Where this process's cgroups are: cgroup mounts from `/proc/self/mountinfo`
 * and the process's own cgroup in each hierarchy from `/proc/self/cgroup`.
 * Parsing is pure; {@link readHostCgroups} reads the two files.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { unescapeMountField } from "../exec/mount-aliases.js";

/** One mounted cgroup hierarchy. */
export interface CgroupMount {
  /** `cgroup2`, or `cgroup` (v1). */
  readonly type: "cgroup2" | "cgroup";
  /** Where it is mounted, e.g. `/sys/fs/cgroup/memory`. */
  readonly mountPoint: string;
  /** The hierarchy's path shown at the mount point (`/` unless a container mounted a subtree). */
  readonly root: string;
  /** v1 controllers of the hierarchy (`memory`, `pids`, `cpu`, ...); empty for v2. */
  readonly controllers: readonly string[];
  /** Mounted read-write. */
  readonly writable: boolean;
}

/** One line of `/proc/self/cgroup`. */
export interface OwnCgroup {
  /** Hierarchy id; 0 for v2. */
  readonly hierarchy: number;
  /** v1 controllers (empty for v2). */
  readonly controllers: readonly string[];
  /** Path inside the hierarchy, e.g. `/user.slice/...`. */
  readonly path: string;
}

/** What the host offers. */
export interface HostCgroups {
  readonly mounts: readonly CgroupMount[];
  readonly own: readonly OwnCgroup[];
}

/**
 * Parses `/proc/self/mountinfo`, keeping cgroup and cgroup2 mounts.
 *
 * @param text - The file's content.
 * @returns The cgroup mounts, in file order.
 */
export function parseCgroupMounts(text: string): CgroupMount[] {
  const out: CgroupMount[] = [];
  for (const line of text.split("\n")) {
    const separator = line.indexOf(" - ");
    if (separator < 0) continue;
    const before = line.slice(0, separator).split(" ");
    const after = line.slice(separator + 3).split(" ");
    const type = after[0];
    if (type !== "cgroup" && type !== "cgroup2") continue;
    const root = unescapeMountField(before[3] ?? "/");
    const mountPoint = unescapeMountField(before[4] ?? "");
    const mountOptions = (before[5] ?? "").split(",");
    const superOptions = (after[2] ?? "").split(",");
    const writable = mountOptions.includes("rw") && !superOptions.includes("ro");
    const controllers =
      type === "cgroup"
        ? superOptions.filter((o) => o !== "rw" && o !== "ro" && !o.includes("=") && !KNOWN_V1_FLAGS.has(o))
        : [];
    out.push({ type, mountPoint, root, controllers, writable });
  }
  return out;
}

/** v1 super options that are flags, not controllers. */
const KNOWN_V1_FLAGS = new Set([
  "noprefix",
  "clone_children",
  "xattr",
  "cpuset_v2_mode",
  "relatime",
  "nosuid",
  "nodev",
  "noexec",
]);

/**
 * Parses `/proc/self/cgroup`.
 *
 * @param text - The file's content.
 * @returns One entry per hierarchy.
 */
export function parseOwnCgroups(text: string): OwnCgroup[] {
  const out: OwnCgroup[] = [];
  for (const line of text.split("\n")) {
    const match = /^(\d+):([^:]*):(.*)$/.exec(line);
    if (match === null) continue;
    const controllers = (match[2] as string) === "" ? [] : (match[2] as string).split(",");
    out.push({ hierarchy: Number(match[1]), controllers, path: match[3] as string });
  }
  return out;
}

/**
 * Reads this process's view of the host's cgroups.
 *
 * @param procDir - `/proc/self` (tests pass a fixture directory).
 * @returns Mounts and own cgroups; empty lists where the files are unreadable.
 */
export async function readHostCgroups(procDir = "/proc/self"): Promise<HostCgroups> {
  const [mountinfo, cgroup] = await Promise.all([
    readFile(path.join(procDir, "mountinfo"), "utf8").catch(() => ""),
    readFile(path.join(procDir, "cgroup"), "utf8").catch(() => ""),
  ]);
  return { mounts: parseCgroupMounts(mountinfo), own: parseOwnCgroups(cgroup) };
}

/**
 * The directory of this process's own cgroup in a hierarchy.
 *
 * @param mount - The hierarchy's mount.
 * @param ownPath - The process's path in that hierarchy.
 * @returns The host directory, or `undefined` when the process's cgroup is not
 *   below the mounted subtree (then it cannot be reached through this mount).
 */
export function ownCgroupDir(mount: CgroupMount, ownPath: string): string | undefined {
  const root = mount.root === "/" ? "" : mount.root.replace(/\/+$/, "");
  if (root !== "" && ownPath !== root && !ownPath.startsWith(`${root}/`)) return undefined;
  const relative = ownPath.slice(root.length);
  if (relative.split("/").includes("..")) return undefined;
  return path.join(mount.mountPoint, relative);
}
