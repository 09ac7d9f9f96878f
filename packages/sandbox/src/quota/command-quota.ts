/**
 * The disk-quota check of one running command: a threshold fixed at start, a
 * file-size cap derived from what is left, a poller that measures the
 * folders while the command runs, and the final measurement.
 */
import type { QuotaFigures } from "../bounds/bound-messages.js";
import type { DiskQuota } from "./disk-quota.js";
import type { DiskUsage } from "./disk-usage.js";

/**
 * Tells whether `usage` is past `threshold`. A measurement that could not count
 * everything is past any threshold.
 */
function isOverQuota(usage: DiskUsage, threshold: QuotaFigures): boolean {
  return usage.incomplete !== undefined || usage.bytes > threshold.bytes || usage.files > threshold.files;
}

/** A walk is given at most this share of the time between polls. */
const WALK_SHARE = 4;

/** The quota check around one command (made by `DiskQuota.beginCommand`). */
export class CommandQuota {
  /** Usage when the command started. */
  readonly start: DiskUsage;
  /** What the command may not cross. */
  readonly threshold: QuotaFigures;
  /** The quota itself. */
  readonly limits: QuotaFigures;
  readonly #quota: DiskQuota;

  constructor(quota: DiskQuota, start: DiskUsage, threshold: QuotaFigures) {
    this.#quota = quota;
    this.start = start;
    this.threshold = threshold;
    this.limits = quota.limits;
  }

  /**
   * RLIMIT_FSIZE for the command: one byte past what the quota has left, so a
   * single file that would fill the quota is cut just past it (and the final
   * check reports the crossing); `undefined` without a bytes quota.
   */
  fileSizeCap(): number | undefined {
    if (!Number.isFinite(this.limits.bytes)) return undefined;
    return Math.max(0, this.limits.bytes - this.start.bytes) + 1;
  }

  /** True when `usage` is past this command's threshold. */
  crossed(usage: DiskUsage): boolean {
    return isOverQuota(usage, this.threshold);
  }

  /**
   * Measures the folders every `pollIntervalMs` (longer when a walk is slow)
   * until stopped or crossed.
   *
   * @param onCrossed - Called once, with the usage, when the threshold is crossed.
   * @returns Stops the polling.
   */
  watch(onCrossed: (usage: DiskUsage) => void): () => void {
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    const schedule = (delayMs: number): void => {
      if (stopped) return;
      timer = setTimeout(() => void poll(), delayMs);
      timer.unref();
    };
    const poll = async (): Promise<void> => {
      const started = Date.now();
      const usage = await this.#quota.measure();
      if (stopped) return;
      if (this.crossed(usage)) {
        stopped = true;
        onCrossed(usage);
        return;
      }
      schedule(Math.max(this.#quota.pollIntervalMs, (Date.now() - started) * WALK_SHARE));
    };
    schedule(this.#quota.pollIntervalMs);
    return () => {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
    };
  }

  /**
   * Measures the folders once the command has ended.
   *
   * @returns The usage and whether the command crossed its threshold.
   */
  async finish(): Promise<{ readonly usage: DiskUsage; readonly crossed: boolean }> {
    const usage = await this.#quota.measure();
    return { usage, crossed: this.crossed(usage) };
  }
}
