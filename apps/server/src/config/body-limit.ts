/** Parses `server.body_limit`: bytes as an integer, or a string like `10mb` / `512 KiB`. */

// As the `bytes` package (Express, body-parser): kb/mb/gb are powers of 1024.
const UNITS: Readonly<Record<string, number>> = {
  "": 1,
  b: 1,
  k: 1024,
  kb: 1024,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1024 ** 3,
  gib: 1024 ** 3,
};

/**
 * @param value - integer bytes or a size string
 * @returns bytes, or `undefined` when the value is not a positive size
 */
export function parseByteSize(value: number | string): number | undefined {
  if (typeof value === "number") return Number.isInteger(value) && value > 0 ? value : undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(value);
  if (!m) return undefined;
  const unit = UNITS[(m[2] ?? "").toLowerCase()];
  if (unit === undefined) return undefined;
  const bytes = Math.round(Number(m[1]) * unit);
  return bytes > 0 ? bytes : undefined;
}
