/**
 * Resource limits as `prlimit` arguments.
 *
 * Limits are set with soft = hard so a command cannot raise them again. A
 * requested value above the current hard limit is clamped to it: raising a
 * hard limit needs CAP_SYS_RESOURCE, and a failing `prlimit` would fail every
 * command instead of applying the tightest limit possible.
 */
import { readFileSync } from "node:fs";
import { SandboxError } from "../errors.js";
import type { ResourceLimits } from "./command-runner.js";

/** `prlimit` option names and the `/proc/self/limits` row of each limit. */
const LIMITS = [
  { key: "cpuSeconds", option: "--cpu", row: "Max cpu time" },
  { key: "memoryBytes", option: "--data", row: "Max data size" },
  { key: "fileSizeBytes", option: "--fsize", row: "Max file size" },
  { key: "openFiles", option: "--nofile", row: "Max open files" },
  { key: "processes", option: "--nproc", row: "Max processes" },
] as const;

type LimitKey = (typeof LIMITS)[number]["key"];

/** Current hard limits of this process (`Infinity` for unlimited), by limit. */
export type HardLimits = Partial<Record<LimitKey, number>>;

let cachedHardLimits: HardLimits | undefined;

/**
 * Parses `/proc/self/limits` text.
 *
 * @param text - the file's content.
 * @returns the hard limit of each limit this module sets.
 */
export function parseHardLimits(text: string): HardLimits {
  const out: HardLimits = {};
  for (const line of text.split("\n")) {
    for (const { key, row } of LIMITS) {
      if (!line.startsWith(row)) continue;
      const fields = line.slice(row.length).trim().split(/\s+/);
      const hard = fields[1];
      if (hard === undefined) continue;
      out[key] = hard === "unlimited" ? Number.POSITIVE_INFINITY : Number(hard);
    }
  }
  return out;
}

/**
 * The hard limits children inherit from this process, read once.
 *
 * @returns parsed limits; empty where `/proc` is unavailable.
 */
export function currentHardLimits(): HardLimits {
  if (cachedHardLimits === undefined) {
    try {
      cachedHardLimits = parseHardLimits(readFileSync("/proc/self/limits", "utf8"));
    } catch {
      cachedHardLimits = {};
    }
  }
  return cachedHardLimits;
}

/**
 * Checks that every limit is a non-negative integer.
 *
 * @param limits - limits to check.
 * @throws SandboxError `INVALID_ARGUMENT` naming the bad limit.
 */
export function validateLimits(limits: ResourceLimits): void {
  for (const [name, value] of Object.entries(limits)) {
    if (value === undefined) continue;
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
      throw new SandboxError("INVALID_ARGUMENT", `Resource limit ${name} must be a non-negative integer`);
    }
  }
}

/**
 * Builds `prlimit` options for a set of limits.
 *
 * @param limits - the limits; unset ones are left alone. `tmpBytes` is not an
 *   rlimit and is ignored here.
 * @param options - `processes: false` drops RLIMIT_NPROC (it has no effect for
 *   root and would only mislead); `hardLimits` defaults to this process's.
 * @returns options such as `["--cpu=5:5", "--data=536870912:536870912"]`.
 * @throws SandboxError `INVALID_ARGUMENT` for a negative or fractional limit.
 */
export function prlimitArgs(
  limits: ResourceLimits,
  options: { readonly processes?: boolean; readonly hardLimits?: HardLimits } = {},
): string[] {
  validateLimits(limits);
  const hard = options.hardLimits ?? currentHardLimits();
  const args: string[] = [];
  for (const { key, option } of LIMITS) {
    if (key === "processes" && options.processes === false) continue;
    const requested = limits[key];
    if (requested === undefined) continue;
    const value = Math.min(requested, hard[key] ?? Number.POSITIVE_INFINITY);
    args.push(`${option}=${value}:${value}`);
  }
  return args;
}
