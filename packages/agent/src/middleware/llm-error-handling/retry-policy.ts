/**
 * Which provider errors are worth retrying and how long to wait: DeerFlow's
 * `LLMErrorHandlingMiddleware` policy (`llm_call:` keys). Transient errors
 * (5xx, 408, timeouts, dropped connections, anything LangChain marked
 * retryable) get `retry_max_attempts` attempts with decorrelated-jitter
 * backoff (`min(cap, random(base, previous × 3))`, AWS's variant); a 429 rate
 * limit ("burst") gets at most one retry, after the provider's `Retry-After`
 * when it sends one, else after a jittered `burst_retry_base_delay_ms`.
 * Errors LangChain marked non-retryable (4xx, quota exhausted, aborts) fail at once.
 */
import { getRetryable } from "@langchain/core/errors";
import { parseRetryAfterMs } from "@langchain/core/utils/async_caller";

/** `llm_call:` retry settings (camelCase of DeerFlow's keys). */
export interface RetrySettings {
  /** `llm_call.retry_max_attempts`: attempts of a transient failure, the first included (≥ 1). Default 3. */
  readonly retryMaxAttempts?: number;
  /** `llm_call.retry_base_delay_ms`: smallest backoff. Default 1000. */
  readonly retryBaseDelayMs?: number;
  /** `llm_call.retry_cap_delay_ms`: largest backoff. Default 8000. */
  readonly retryCapDelayMs?: number;
  /** `llm_call.burst_retry_base_delay_ms`: wait before the one retry of a 429 without `Retry-After`. Default 5000. */
  readonly burstRetryBaseDelayMs?: number;
  /** A `Retry-After` longer than this is not waited for (the call fails). Default 60000. */
  readonly maxRetryAfterMs?: number;
}

/** DeerFlow's defaults. */
export const DEFAULT_RETRY_SETTINGS: Required<RetrySettings> = Object.freeze({
  retryMaxAttempts: 3,
  retryBaseDelayMs: 1000,
  retryCapDelayMs: 8000,
  burstRetryBaseDelayMs: 5000,
  maxRetryAfterMs: 60_000,
});

/** How an error is treated. */
export type ErrorKind = "transient" | "rate_limit" | "fatal";

const TRANSIENT_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ETIMEDOUT",
  "EPIPE",
  "EAI_AGAIN",
  "ENOTFOUND",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
]);
const TRANSIENT_NAMES = new Set(["APIConnectionError", "APIConnectionTimeoutError", "TimeoutError", "FetchError"]);

const statusOf = (err: unknown): number | undefined => {
  const e = err as { status?: unknown; statusCode?: unknown; response?: { status?: unknown } } | null;
  const status = e?.status ?? e?.statusCode ?? e?.response?.status;
  return typeof status === "number" ? status : undefined;
};

/**
 * The provider's own error: LangChain wraps what an inner middleware's
 * `wrapModelCall` throws in a `MiddlewareError` (the original as `cause`).
 *
 * @param err - what the handler threw
 * @returns the innermost wrapped error
 */
export function providerErrorOf(err: unknown): unknown {
  let current = err;
  for (let depth = 0; depth < 10; depth++) {
    const e = current as { "~brand"?: unknown; cause?: unknown } | null;
    if (typeof e !== "object" || e === null || e["~brand"] !== "MiddlewareError" || e.cause === undefined)
      return current;
    current = e.cause;
  }
  return current;
}

/**
 * Classifies a failed model call.
 *
 * @param err - what the model call threw
 * @returns `rate_limit` (429), `transient` (worth retrying) or `fatal`
 */
export function classifyError(thrown: unknown): ErrorKind {
  const err = providerErrorOf(thrown);
  if (typeof err !== "object" || err === null) return "fatal";
  const status = statusOf(err);
  const marked = getRetryable(err);
  if (marked === false) return "fatal";
  if (status === 429) return "rate_limit";
  if (status !== undefined) return status >= 500 || status === 408 ? "transient" : "fatal";
  const { name, code } = err as { name?: unknown; code?: unknown };
  if (
    marked === true ||
    (typeof code === "string" && TRANSIENT_CODES.has(code)) ||
    (typeof name === "string" && TRANSIENT_NAMES.has(name))
  )
    return "transient";
  return "fatal";
}

/**
 * The provider's `Retry-After`, in ms: what LangChain's caller stamped on the
 * error (`retryAfterMs`), else the error's `retry-after` header.
 *
 * @param err - what the model call threw
 * @returns the wait, or `undefined` when the provider named none
 */
export function retryAfterOf(thrown: unknown): number | undefined {
  const e = providerErrorOf(thrown) as { retryAfterMs?: unknown; headers?: unknown } | null;
  if (typeof e?.retryAfterMs === "number" && e.retryAfterMs >= 0) return e.retryAfterMs;
  const headers = e?.headers as { get?: (k: string) => string | null } | Record<string, string> | undefined;
  if (headers === undefined || headers === null) return undefined;
  const raw =
    typeof headers.get === "function" ? headers.get("retry-after") : (headers as Record<string, string>)["retry-after"];
  return typeof raw === "string" ? parseRetryAfterMs(raw) : undefined;
}

/**
 * The next decorrelated-jitter delay: `min(cap, uniform(base, previous × 3))`.
 *
 * @param previousMs - the previous delay (the base before the first retry)
 * @param settings - base and cap
 * @param random - a uniform [0, 1) source
 * @returns the delay in ms
 */
export function decorrelatedJitter(
  previousMs: number,
  settings: Pick<Required<RetrySettings>, "retryBaseDelayMs" | "retryCapDelayMs">,
  random: () => number,
): number {
  const base = settings.retryBaseDelayMs;
  const upper = Math.max(base, previousMs * 3);
  return Math.min(settings.retryCapDelayMs, base + random() * (upper - base));
}
