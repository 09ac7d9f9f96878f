/**
 * One Redis operation of a {@link RedisStreamBridge} (a publish, the end
 * marker, `exists`, `cleanup`): retried with backoff on transient failures,
 * and bounded in time as a whole, because a client may hold a command in its
 * offline queue for as long as an outage lasts. A command still queued when
 * the deadline passes may land later, which the bridge's explicit ids make
 * harmless.
 */
import { RuntimeError } from "../errors.js";
import { retryWithBackoff, type BackoffOptions } from "../internal/backoff.js";
import { raceAbort } from "../internal/race-abort.js";
import type { Logger } from "../logger.js";
import { linkSignals } from "./linked-signal.js";
import { isTransientRedisError } from "./redis-errors.js";

/** Runs one Redis operation with the bridge's retries; failures become `BRIDGE_UNAVAILABLE` (or `CLOSED`). */
export type RedisCall = <T>(what: string, operation: () => Promise<T>) => Promise<T>;

/** What {@link boundedRedisCall} needs from its bridge. */
export interface RedisCallOptions {
  readonly retry: BackoffOptions;
  /** Longest time one operation may take, retries included. */
  readonly operationTimeoutMs: number;
  /** Aborted when the bridge closes: the operation then fails with `CLOSED`. */
  readonly closing: AbortSignal;
  readonly logger: Logger;
}

/** The bridge's {@link RedisCall}: retries bounded by `operationTimeoutMs`. */
export function boundedRedisCall(options: RedisCallOptions): RedisCall {
  const { retry, operationTimeoutMs, closing, logger } = options;
  return async <T>(what: string, operation: () => Promise<T>): Promise<T> => {
    let attempts = 0;
    const timeout = AbortSignal.timeout(operationTimeoutMs);
    const stop = linkSignals(closing, timeout);
    try {
      const retried = retryWithBackoff(
        (attempt) => {
          attempts = attempt;
          return operation();
        },
        {
          ...retry,
          isTransient: isTransientRedisError,
          signal: stop.signal,
          onRetry: (error, attempt, delayMs) =>
            logger.warn(
              { what, attempt, delayMs, err: (error as Error).message },
              "stream bridge: Redis call failed, retrying",
            ),
        },
      );
      // An attempt can hang in the client's offline queue for the whole outage: stop waiting at the deadline.
      return await raceAbort(retried, stop.signal);
    } catch (error) {
      if (closing.aborted)
        throw new RuntimeError("CLOSED", `RedisStreamBridge closed during ${what}`, { cause: error });
      if (timeout.aborted) {
        throw new RuntimeError(
          "BRIDGE_UNAVAILABLE",
          `Redis stream bridge: ${what} did not complete within ${operationTimeoutMs} ms (${attempts} attempt(s)); is Redis reachable?`,
          {
            cause: error,
            details: { attempts, timeoutMs: operationTimeoutMs, transient: true },
          },
        );
      }
      throw new RuntimeError(
        "BRIDGE_UNAVAILABLE",
        `Redis stream bridge: ${what} failed after ${attempts} attempt(s): ${(error as Error).message}`,
        {
          cause: error,
          details: { attempts, transient: isTransientRedisError(error) },
        },
      );
    } finally {
      stop.dispose();
    }
  };
}
