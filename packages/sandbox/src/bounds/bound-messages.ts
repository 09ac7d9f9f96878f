/**
 * The texts a thread sees when it reaches a bound: the disk quota (tool
 * writes refused, commands stopped) and the memory bound (a process killed by
 * the kernel). They name virtual paths only.
 */

/** Marks every notice this package appends to a command's stderr. */
export const DISK_QUOTA_NOTICE_PREFIX = "[Disk quota exceeded:";
export const MEMORY_LIMIT_NOTICE_PREFIX = "[Memory limit reached:";

const UNITS = ["bytes", "KiB", "MiB", "GiB", "TiB"] as const;

/**
 * A byte count for people: `512 bytes`, `64.0 MiB`.
 *
 * @param bytes - A non-negative count.
 * @returns The text.
 */
function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  if (unit === 0) return bytes === 1 ? "1 byte" : `${bytes} bytes`;
  return `${value.toFixed(1)} ${UNITS[unit]}`;
}

/** `1 entry`, `2 entries`, `1,000 entries`. */
function entries(count: number): string {
  return count === 1 ? "1 entry" : `${count.toLocaleString("en-US")} entries`;
}

/** Limits as shown in messages; `Infinity` for an unset one. */
export interface QuotaFigures {
  readonly bytes: number;
  readonly files: number;
}

function quotaText(limits: QuotaFigures): string {
  const parts: string[] = [];
  if (Number.isFinite(limits.bytes)) parts.push(formatBytes(limits.bytes));
  if (Number.isFinite(limits.files)) parts.push(entries(limits.files));
  return parts.join(" and ");
}

/**
 * The error message of a tool write the quota refuses.
 *
 * @param virtualPath - The file written.
 * @param addedBytes - Bytes the write adds (its size, or the growth of a replaced file).
 * @param projected - The thread's usage had the write gone through.
 * @param limits - The quota.
 * @returns e.g. `Disk quota exceeded: writing 1.0 MiB to /mnt/user-data/workspace/a.bin would bring the thread's files to 64.5 MiB in 12 entries; the quota is 64.0 MiB and 100,000 entries. Delete files to free space.`
 */
export function writeRefusedMessage(
  virtualPath: string,
  addedBytes: number,
  projected: QuotaFigures,
  limits: QuotaFigures,
): string {
  return (
    `Disk quota exceeded: writing ${formatBytes(Math.max(0, addedBytes))} to ${virtualPath} would bring the thread's files to ` +
    `${formatBytes(projected.bytes)} in ${entries(projected.files)}; the quota is ${quotaText(limits)}. Delete files to free space.`
  );
}

/** Why a command's notice is shown. */
export type QuotaNoticeCause = "stopped" | "crossed" | "file-size" | "unmeasurable";

/**
 * The notice appended to the stderr of a command that crossed the quota.
 *
 * @param cause - `stopped`: killed while running; `crossed`: it finished past
 *   the quota; `file-size`: a file hit the file-size bound lowered to the quota
 *   left; `unmeasurable`: the folders could not be measured.
 * @param usage - The thread's usage after the command.
 * @param limits - The quota.
 * @param detail - `incomplete`: why the folders could not be measured
 *   (`unmeasurable`); `leftAtStart`: bytes the quota had left when the
 *   command started (`file-size`).
 * @returns The notice, starting with a newline.
 */
export function quotaNotice(
  cause: QuotaNoticeCause,
  usage: QuotaFigures,
  limits: QuotaFigures,
  detail: { readonly incomplete?: string; readonly leftAtStart?: number } = {},
): string {
  const state =
    cause === "unmeasurable"
      ? `the thread's files could not all be measured (${detail.incomplete ?? "unknown reason"}), so they count as over the quota of ${quotaText(limits)}.`
      : `the thread's files (workspace, uploads, outputs) take ${formatBytes(usage.bytes)} in ${entries(usage.files)}; the quota is ${quotaText(limits)}.`;
  let outcome: string;
  if (cause === "stopped")
    outcome = "The command was stopped; files already written were kept. Delete files to free space.";
  else if (cause === "file-size") {
    outcome =
      `The command started with ${formatBytes(detail.leftAtStart ?? 0)} left in the quota, so no file could grow past that and a write was cut there; ` +
      "files already written were kept. Delete files in a command of their own to free space before writing again.";
  } else outcome = "Files already written were kept. Delete files to free space.";
  return `\n${DISK_QUOTA_NOTICE_PREFIX} ${state} ${outcome}]`;
}

/**
 * The notice appended to the stderr of a command during which the kernel
 * killed a process of the sandbox for its memory bound.
 *
 * @param memoryBytes - The bound, when known.
 * @param kills - Processes killed during the command.
 * @returns The notice, starting with a newline.
 */
export function memoryLimitNotice(memoryBytes: number | undefined, kills: number): string {
  const bound = memoryBytes === undefined ? "its memory bound" : `its memory bound of ${formatBytes(memoryBytes)}`;
  const what = kills === 1 ? "a process" : `${kills} processes`;
  return `\n${MEMORY_LIMIT_NOTICE_PREFIX} the sandbox's processes together reached ${bound} (/tmp, shared memory and memfd included), and the kernel killed ${what} (SIGKILL, exit code 137).]`;
}
