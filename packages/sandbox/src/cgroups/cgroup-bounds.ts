/**
 * From a sandbox's {@link ResourceLimits} to the bounds of its cgroup, and the
 * unit conversions between cgroup v2 and v1.
 */
import { SandboxError } from "../errors.js";
import type { ResourceLimits } from "../exec/command-runner.js";
import type { CgroupBounds } from "./cgroup-types.js";

/**
 * Tasks added to `processes` for the pids bound: the sandbox's own wrapper
 * processes (start gate, `prlimit`, both bubblewrap stages and their monitors,
 * a long-lived executor) live in the cgroup too.
 */
export const PIDS_HEADROOM = 16;

/** cgroup v2's `cpu.weight` range; 100 is the kernel's default. */
export const MIN_CPU_WEIGHT = 1;
export const MAX_CPU_WEIGHT = 10_000;
export const DEFAULT_CPU_WEIGHT = 100;

/**
 * The cgroup bounds a set of limits asks for.
 *
 * @param limits - The sandbox's limits: `memoryBytes`, `processes` and `cpuWeight` are used.
 * @returns The bounds; empty when none applies.
 * @throws SandboxError `INVALID_ARGUMENT` for a `cpuWeight` outside 1–10000.
 */
export function cgroupBoundsFromLimits(limits: ResourceLimits): CgroupBounds {
  const { memoryBytes, processes, cpuWeight } = limits;
  if (
    cpuWeight !== undefined &&
    !(Number.isInteger(cpuWeight) && cpuWeight >= MIN_CPU_WEIGHT && cpuWeight <= MAX_CPU_WEIGHT)
  ) {
    throw new SandboxError(
      "INVALID_ARGUMENT",
      `Resource limit cpuWeight must be an integer from ${MIN_CPU_WEIGHT} to ${MAX_CPU_WEIGHT}, got ${String(cpuWeight)}`,
    );
  }
  return {
    ...(memoryBytes === undefined ? {} : { memoryBytes }),
    ...(processes === undefined ? {} : { pids: processes + PIDS_HEADROOM }),
    ...(cpuWeight === undefined ? {} : { cpuWeight }),
  };
}

/** True when the bounds ask for nothing (no cgroup is needed). */
export function hasCgroupBounds(bounds: CgroupBounds): boolean {
  return bounds.memoryBytes !== undefined || bounds.pids !== undefined || bounds.cpuWeight !== undefined;
}

/**
 * cgroup v1 `cpu.shares` for a v2 weight: the defaults match (100 ↔ 1024),
 * clamped to the kernel's 2–262144.
 *
 * @param weight - 1–10000.
 * @returns The shares.
 */
export function cpuWeightToShares(weight: number): number {
  return Math.min(262_144, Math.max(2, Math.round((weight * 1024) / DEFAULT_CPU_WEIGHT)));
}
