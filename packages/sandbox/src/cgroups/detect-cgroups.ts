/**
 * Picks the cgroup controller for this host once per process: cgroup v2 when
 * its unified hierarchy offers the `memory` or `pids` controller and can be
 * delegated, else v1 when its `memory` or `pids` hierarchy is mounted
 * read-write, else the no-op fallback (RLIMITs only). The choice is logged.
 *
 * Sandbox cgroups live below this process's own cgroup, in a folder named
 * {@link DEFAULT_CGROUP_PARENT}, so the host's limits on the server still
 * cover every sandbox.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { silentLogger, type Logger } from "../logger.js";
import { CgroupV1Controller, type V1Controller, type V1ParentDirs } from "./cgroup-v1.js";
import { CgroupV2Controller, type V2Controller } from "./cgroup-v2.js";
import { cannotCreateChild, cgroupPids, makeCgroupDir, removeStaleCgroups, writeControl } from "./cgroup-files.js";
import type { CgroupController } from "./cgroup-types.js";
import { ownCgroupDir, readHostCgroups, type HostCgroups } from "./host-cgroups.js";
import { NoCgroupController } from "./no-cgroup.js";

/** Folder below the server's own cgroup that holds the sandbox cgroups. */
export const DEFAULT_CGROUP_PARENT = "deerflow-sandboxes";

/** Leaf the server moves itself into when cgroup v2 forbids controllers next to its own process. */
export const SERVER_LEAF_CGROUP = "deerflow-server";

/** Which cgroup version to use; `auto` tries v2, then v1. */
export type CgroupMode = "auto" | "v2" | "v1" | "off";

/** Options of {@link detectCgroups}. */
export interface DetectCgroupsOptions {
  /** Default `auto`. */
  readonly mode?: CgroupMode;
  readonly logger?: Logger;
  /** Name of the folder holding the sandbox cgroups. Default {@link DEFAULT_CGROUP_PARENT}. */
  readonly parentName?: string;
  /** Where `mountinfo` and `cgroup` are read (default `/proc/self`; tests pass a fixture). */
  readonly procDir?: string;
}

const CONTROLLERS = ["memory", "pids", "cpu"] as const;

const detections = new Map<string, Promise<CgroupController>>();

/**
 * The cgroup controller of this host, detected on the first call for a given
 * set of options and logged once; later calls share the result.
 *
 * @param options - See {@link DetectCgroupsOptions}.
 * @returns A v2, v1 or no-op controller; never rejects.
 * @example
 * ```ts
 * const cgroups = await detectCgroups({ logger });
 * console.log(cgroups.version, cgroups.controllers); // "v1" ["memory", "pids", "cpu"]
 * ```
 */
export function detectCgroups(options: DetectCgroupsOptions = {}): Promise<CgroupController> {
  const mode = options.mode ?? "auto";
  const parentName = options.parentName ?? DEFAULT_CGROUP_PARENT;
  const key = `${mode}\0${parentName}\0${options.procDir ?? ""}`;
  let detection = detections.get(key);
  if (detection === undefined) {
    detection = detect(mode, parentName, options.procDir, options.logger ?? silentLogger);
    detections.set(key, detection);
  }
  return detection;
}

async function detect(
  mode: CgroupMode,
  parentName: string,
  procDir: string | undefined,
  logger: Logger,
): Promise<CgroupController> {
  if (mode === "off") return announce(new NoCgroupController("cgroups disabled by configuration"), logger);
  if (process.platform !== "linux")
    return announce(new NoCgroupController(`no cgroups on ${process.platform}`), logger);
  const host = await readHostCgroups(procDir);
  const reasons: string[] = [];
  if (mode !== "v1") {
    const v2 = await setUpV2(host, parentName, logger).catch((err: unknown) => errorText(err));
    if (typeof v2 !== "string") return announce(v2, logger);
    reasons.push(`v2: ${v2}`);
  }
  if (mode !== "v2") {
    const v1 = await setUpV1(host, parentName, logger).catch((err: unknown) => errorText(err));
    if (typeof v1 !== "string") return announce(v1, logger);
    reasons.push(`v1: ${v1}`);
  }
  return announce(new NoCgroupController(reasons.join("; ")), logger);
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function announce(controller: CgroupController, logger: Logger): CgroupController {
  if (controller instanceof NoCgroupController) {
    logger.warn(
      { cgroup: "none", reason: controller.reason },
      "sandbox cgroups unavailable: only RLIMITs bound commands (no per-sandbox memory, pids or CPU bound)",
    );
  } else {
    logger.info(
      { cgroup: controller.version, controllers: controller.controllers },
      `sandbox cgroups: ${controller.version} (${controller.controllers.join(", ")})`,
    );
  }
  return controller;
}

/** cgroup v2: returns the controller, or why it cannot be used. */
async function setUpV2(host: HostCgroups, parentName: string, logger: Logger): Promise<CgroupController | string> {
  const mount = host.mounts.find((m) => m.type === "cgroup2");
  if (mount === undefined) return "no cgroup2 mount";
  if (!mount.writable) return `${mount.mountPoint} is mounted read-only`;
  const own = host.own.find((o) => o.hierarchy === 0);
  const ownDir = own === undefined ? undefined : ownCgroupDir(mount, own.path);
  if (ownDir === undefined) return "this process's cgroup is not below the cgroup2 mount";
  const available = ((await readFile(path.join(ownDir, "cgroup.controllers"), "utf8").catch(() => "")) as string)
    .trim()
    .split(/\s+/);
  const wanted = CONTROLLERS.filter((c) => available.includes(c));
  if (!wanted.includes("memory") && !wanted.includes("pids")) {
    return `neither the memory nor the pids controller is available in ${ownDir} (controllers: ${available.join(" ") || "none"}; they may be bound to v1 hierarchies)`;
  }
  const enabled = await enableControllers(ownDir, wanted, logger);
  if (typeof enabled === "string") return enabled;
  const parent = path.join(ownDir, parentName);
  await makeCgroupDir(parent);
  const refused = await cannotCreateChild(parent);
  if (refused !== undefined) return refused;
  const children: V2Controller[] = [];
  for (const controller of enabled) {
    if (
      await writeControl(parent, "cgroup.subtree_control", `+${controller}`).then(
        () => true,
        () => false,
      )
    )
      children.push(controller);
  }
  if (!children.includes("memory") && !children.includes("pids")) return `cannot enable memory or pids in ${parent}`;
  await removeStaleCgroups(parent, true);
  return new CgroupV2Controller(parent, children, logger);
}

/**
 * Enables controllers for the children of the server's own cgroup. cgroup v2
 * refuses that (EBUSY) while the cgroup holds processes, unless it is the
 * root; when the server is the only process there, it moves itself into a
 * leaf next to the sandboxes, as container runtimes do.
 */
async function enableControllers(
  ownDir: string,
  wanted: readonly V2Controller[],
  logger: Logger,
): Promise<V2Controller[] | string> {
  const enabled: V2Controller[] = [];
  for (const controller of wanted) {
    try {
      await writeFile(path.join(ownDir, "cgroup.subtree_control"), `+${controller}`);
      enabled.push(controller);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== "EBUSY") {
        logger.debug({ controller, code }, "cgroup v2: controller not enabled");
        continue;
      }
      const pids = await cgroupPids(ownDir);
      if (pids.some((pid) => pid !== process.pid)) {
        return `${ownDir} holds other processes, so controllers cannot be enabled for sandboxes; run the server in a delegated cgroup of its own`;
      }
      const leaf = path.join(ownDir, SERVER_LEAF_CGROUP);
      await makeCgroupDir(leaf);
      await writeControl(leaf, "cgroup.procs", process.pid);
      logger.info(
        { cgroup: "v2" },
        `cgroup v2: moved the server into the ${SERVER_LEAF_CGROUP} leaf of its cgroup so sandboxes can get controllers`,
      );
      try {
        await writeFile(path.join(ownDir, "cgroup.subtree_control"), `+${controller}`);
        enabled.push(controller);
      } catch (retry) {
        return `cannot enable ${controller} in ${ownDir} (${(retry as NodeJS.ErrnoException).code ?? "error"})`;
      }
    }
  }
  return enabled;
}

/** cgroup v1: returns the controller, or why it cannot be used. */
async function setUpV1(host: HostCgroups, parentName: string, logger: Logger): Promise<CgroupController | string> {
  const parents: V1ParentDirs = {};
  const problems: string[] = [];
  for (const controller of CONTROLLERS) {
    const mount = host.mounts.find((m) => m.type === "cgroup" && m.controllers.includes(controller));
    if (mount === undefined) {
      problems.push(`${controller} not mounted`);
      continue;
    }
    if (!mount.writable) {
      problems.push(`${controller} mounted read-only`);
      continue;
    }
    const own = host.own.find((o) => o.controllers.includes(controller));
    const ownDir = own === undefined ? undefined : ownCgroupDir(mount, own.path);
    if (ownDir === undefined) {
      problems.push(`this process's ${controller} cgroup is not below ${mount.mountPoint}`);
      continue;
    }
    const parent = path.join(ownDir, parentName);
    try {
      await makeCgroupDir(parent);
      const refused = await cannotCreateChild(parent);
      if (refused !== undefined) {
        problems.push(`${controller}: ${refused}`);
        continue;
      }
      parents[controller as V1Controller] = parent;
    } catch (err) {
      problems.push(`${controller}: ${errorText(err)}`);
    }
  }
  if (parents.memory === undefined && parents.pids === undefined)
    return problems.join(", ") || "no memory or pids hierarchy";
  if (problems.length > 0) logger.debug({ problems }, "cgroup v1: some controllers unavailable");
  // Stale sandboxes of a dead server: any hierarchy lists their processes.
  for (const parent of Object.values(parents)) await removeStaleCgroups(parent, false);
  return new CgroupV1Controller(parents, logger);
}
