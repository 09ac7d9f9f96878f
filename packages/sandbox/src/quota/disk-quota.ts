/**
 * `DiskQuota`: the disk quota of one thread, in bytes and entries, across
 * its workspace, uploads and outputs folders.
 *
 * Tool writes are charged before they write ({@link DiskQuota.chargeWrite})
 * and refused with `QUOTA_EXCEEDED` when it would cross the quota; the
 * usage they check against is cached and moved by the writes themselves, so
 * a write costs one `lstat`, not a walk. Commands are checked by measuring
 * (a walk) before, while (polled) and after they run: see
 * {@link DiskQuota.beginCommand}.
 */
import path from "node:path";
import { SandboxError } from "../errors.js";
import { silentLogger, type Logger } from "../logger.js";
import { writeRefusedMessage, type QuotaFigures } from "../bounds/bound-messages.js";
import { CommandQuota } from "./command-quota.js";
import { measureDiskUsage, type DiskUsage } from "./disk-usage.js";

/** Entries allowed when a quota sets bytes only (also bounds the walk). */
export const DEFAULT_QUOTA_FILES = 1_000_000;

/** How often a running command's folders are measured. */
export const DEFAULT_QUOTA_POLL_MS = 250;

/** A cached usage older than this is measured again before a tool write. */
export const DEFAULT_QUOTA_MAX_AGE_MS = 5_000;

/** The quota; an unset bound is not applied (entries default to {@link DEFAULT_QUOTA_FILES}). */
export interface DiskQuotaLimits {
  readonly bytes?: number;
  readonly files?: number;
}

/** Options of {@link DiskQuota}. */
export interface DiskQuotaOptions {
  /** Host folders counted together (the thread's workspace, uploads and outputs). */
  readonly roots: readonly string[];
  readonly limits: DiskQuotaLimits;
  /** Default {@link DEFAULT_QUOTA_POLL_MS}. */
  readonly pollIntervalMs?: number;
  /** Default {@link DEFAULT_QUOTA_MAX_AGE_MS}. */
  readonly maxAgeMs?: number;
  readonly logger?: Logger;
}

/** One tool write, before it happens (the file writers' `WriteChange`). */
export interface QuotaWriteChange {
  /** Virtual path of the target, for the message. */
  readonly virtualPath: string;
  /** Bytes the call writes. */
  readonly bytes: number;
  /** Size of the file replaced or appended to (0 when new). */
  readonly existingBytes: number;
  /** Appending adds `bytes`; replacing adds `bytes - existingBytes`. */
  readonly append: boolean;
  /** The target did not exist (one more entry). */
  readonly created?: boolean;
  /** Parent folders created for it (each one more entry). */
  readonly createdDirs?: number;
}

/**
 * The disk quota of one thread.
 *
 * @example
 * ```ts
 * const quota = new DiskQuota({ roots: [workspace, uploads, outputs], limits: { bytes: 1 << 30, files: 100_000 } });
 * await quota.chargeWrite({ virtualPath, bytes: data.length, existingBytes: 0, append: false, created: true }); // or QUOTA_EXCEEDED
 * await write();
 * ```
 */
export class DiskQuota {
  /** The bounds; `Infinity` for bytes when only entries are bounded. */
  readonly limits: QuotaFigures;
  readonly pollIntervalMs: number;
  readonly #roots: readonly string[];
  readonly #maxAgeMs: number;
  readonly #logger: Logger;
  #cached: { usage: DiskUsage; at: number } | undefined;
  #inFlight: Promise<DiskUsage> | undefined;
  /** Growth committed while a walk ran (the walk may have missed it: counted again, conservatively). */
  #committedDuringWalk = { bytes: 0, files: 0 };

  /**
   * @param options - Roots, limits and timing.
   * @throws SandboxError `INVALID_ARGUMENT` for a negative or fractional limit.
   */
  constructor(options: DiskQuotaOptions) {
    for (const [name, value] of Object.entries(options.limits)) {
      if (value !== undefined && !(Number.isSafeInteger(value) && value >= 0)) {
        throw new SandboxError("INVALID_ARGUMENT", `Disk quota ${name} must be a non-negative integer`);
      }
    }
    this.limits = {
      bytes: options.limits.bytes ?? Number.POSITIVE_INFINITY,
      files: options.limits.files ?? DEFAULT_QUOTA_FILES,
    };
    this.#roots = options.roots.map((root) => path.resolve(root));
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_QUOTA_POLL_MS;
    this.#maxAgeMs = options.maxAgeMs ?? DEFAULT_QUOTA_MAX_AGE_MS;
    this.#logger = options.logger ?? silentLogger;
  }

  /**
   * Walks the folders now (a walk already running is shared).
   *
   * @returns The usage, also cached for tool writes.
   */
  measure(): Promise<DiskUsage> {
    this.#inFlight ??= this.#walk().finally(() => {
      this.#inFlight = undefined;
    });
    return this.#inFlight;
  }

  async #walk(): Promise<DiskUsage> {
    const started = Date.now();
    this.#committedDuringWalk = { bytes: 0, files: 0 };
    // Twice the entries quota: enough to see how far past it a thread is.
    const measured = await measureDiskUsage(this.#roots, { maxEntries: this.limits.files * 2 + 1 });
    const extra = this.#committedDuringWalk;
    const usage = { ...measured, bytes: measured.bytes + extra.bytes, files: measured.files + extra.files };
    this.#cached = { usage, at: Date.now() };
    this.#logger.debug({ bytes: usage.bytes, files: usage.files, ms: Date.now() - started }, "disk quota: measured");
    return usage;
  }

  /** The cached usage when fresh, else a new measurement. */
  async current(): Promise<DiskUsage> {
    const cached = this.#cached;
    if (cached !== undefined && Date.now() - cached.at < this.#maxAgeMs && this.#inFlight === undefined)
      return cached.usage;
    return this.measure();
  }

  /**
   * Charges a tool write against the quota, or refuses it. The cached usage
   * moves at once (a write that then fails is uncounted by the next walk).
   * A write that does not grow the thread (a shorter replacement) always goes
   * through, so an agent over its quota can still shrink files.
   *
   * @param change - The write.
   * @throws SandboxError `QUOTA_EXCEEDED` when the write would cross the quota.
   */
  async chargeWrite(change: QuotaWriteChange): Promise<void> {
    const measured = await this.current();
    // The latest figures, not the awaited snapshot: writes that passed meanwhile have moved them.
    const usage = this.#cached?.usage ?? measured;
    const addedBytes = change.append ? change.bytes : change.bytes - change.existingBytes;
    const addedFiles = (change.created === true ? 1 : 0) + (change.createdDirs ?? 0);
    const grows = addedBytes > 0 || addedFiles > 0;
    if (usage.incomplete !== undefined && grows) {
      throw new SandboxError(
        "QUOTA_EXCEEDED",
        `Disk quota exceeded: the thread's files could not all be measured (${usage.incomplete}), so writes that add data are refused. Delete files to free space.`,
        { path: change.virtualPath },
      );
    }
    const projected = { bytes: usage.bytes + addedBytes, files: usage.files + addedFiles };
    const overBytes = addedBytes > 0 && (projected.bytes > this.limits.bytes || usage.stoppedEarly);
    const overFiles = addedFiles > 0 && projected.files > this.limits.files;
    if (overBytes || overFiles) {
      throw new SandboxError(
        "QUOTA_EXCEEDED",
        writeRefusedMessage(change.virtualPath, addedBytes, projected, this.limits),
        { path: change.virtualPath },
      );
    }
    // Synchronous from the check on: concurrent writes cannot both pass on the same figures.
    const cached = this.#cached;
    if (cached !== undefined)
      this.#cached = {
        ...cached,
        usage: {
          ...cached.usage,
          bytes: Math.max(0, cached.usage.bytes + addedBytes),
          files: cached.usage.files + addedFiles,
        },
      };
    if (this.#inFlight !== undefined) {
      this.#committedDuringWalk.bytes += Math.max(0, addedBytes);
      this.#committedDuringWalk.files += addedFiles;
    }
  }

  /**
   * Starts the quota check of one command: measures the folders and fixes the
   * threshold it may not cross (the quota, or the usage at start when the
   * thread is already past it, so a command can always delete).
   *
   * @returns The command's check.
   */
  async beginCommand(): Promise<CommandQuota> {
    const usage = await this.current();
    const threshold = usage.stoppedEarly
      ? this.limits
      : { bytes: Math.max(this.limits.bytes, usage.bytes), files: Math.max(this.limits.files, usage.files) };
    return new CommandQuota(this, usage, threshold);
  }
}
