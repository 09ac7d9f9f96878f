/** One reported figure with the baseline it is compared against. */
export interface Figure {
  readonly benchmark: string;
  /** The measured value, formatted (e.g. `412.3 ms`). */
  readonly figure: string;
  /** The baseline value and what it is (e.g. `61.0 ms (fs.readFile x5,000)`). */
  readonly baseline: string;
  /** figure / baseline. */
  readonly ratio: number;
}
/** `"<cpu model> x<cores>, Node <version>"`. */
export function machineDescription(): string;
/** Formats a ratio with enough digits to be useful both near 1 and far below it. */
export function formatRatio(ratio: number): string;
/** Prints one figure to stdout. */
export function printFigure(f: Figure): void;
/** Appends one row per figure to `file` (BENCHMARKS.md), creating it with the header first. */
export function appendRows(file: string, figures: readonly Figure[]): Promise<void>;
