/**
 * DeerFlow's token-budget texts (§3.4), exactly: numbers with thousands
 * separators (`{used:,}`) and the percentage without decimals (`{percent:.0f}`).
 */

/** Which count crossed its budget: `max_tokens` (total), `max_input_tokens` or `max_output_tokens`. */
export type TokenBudgetReason = "total" | "input" | "output";

// Python's `{n:,}` groups with commas whatever the locale.
const grouped = (n: number): string =>
  Math.trunc(n)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/**
 * The warning injected once per run at the next model call.
 *
 * @param used - tokens used by the run
 * @param budget - the budget
 * @param reason - which budget
 * @returns DeerFlow's `[TOKEN BUDGET WARNING]` text
 */
export function tokenBudgetWarningText(used: number, budget: number, reason: TokenBudgetReason): string {
  const percent = ((used / budget) * 100).toFixed(0);
  return `[TOKEN BUDGET WARNING] You have used ${grouped(used)} of your ${grouped(budget)} ${reason} token budget (${percent}%). Wrap up your current work and produce a final answer. Avoid starting new tool calls unless absolutely necessary.`;
}

/**
 * The note of the hard stop (the response's tool calls are removed).
 *
 * @param used - tokens used by the run
 * @param budget - the budget
 * @param reason - which budget
 * @returns DeerFlow's `[TOKEN BUDGET EXCEEDED]` text
 */
export function tokenBudgetExceededText(used: number, budget: number, reason: TokenBudgetReason): string {
  return `[TOKEN BUDGET EXCEEDED] The ${reason} token usage (${grouped(used)}) has exceeded the safety limit (${grouped(budget)}). Producing final answer with results collected so far.`;
}
