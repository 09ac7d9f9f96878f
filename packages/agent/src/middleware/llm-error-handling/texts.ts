/**
 * What the model reads, and the user sees, when a model call finally fails.
 * DeerFlow turns the final failure into a readable assistant message; the
 * wording is ours (the reference does not carry DeerFlow's).
 */

/**
 * The assistant message of a model call that failed after its retries (and fallbacks).
 *
 * @param detail - the last error's class and message
 * @param attempts - calls made
 * @returns the text
 */
export function modelFailedText(detail: string, attempts: number): string {
  return `The model provider could not answer (${detail}) after ${attempts} ${attempts === 1 ? "attempt" : "attempts"}. Nothing was lost: please try again in a moment, or choose a different model.`;
}

/**
 * The assistant message of a call refused by an open circuit.
 *
 * @param failures - the failure threshold that opened it
 * @param retryInSec - seconds until the model may be tried again
 * @returns the text
 */
export function circuitOpenText(failures: number, retryInSec: number): string {
  return `The model provider is temporarily unavailable: calls are paused for ${retryInSec} s after ${failures} failures in a row. Nothing was lost: please try again shortly, or choose a different model.`;
}
