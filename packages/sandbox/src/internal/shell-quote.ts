/**
 * Single-quotes a string for `sh`: the result is one word whose value is
 * exactly `value`, whatever it contains.
 *
 * @param value - Any text without NUL.
 * @returns The quoted word.
 * @example
 * shellQuote("it's here"); // 'it'\''s here'
 */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
