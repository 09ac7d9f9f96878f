/**
 * Which Redis failures are worth retrying. Connection-level failures (lost
 * socket, refused connection, ioredis' `MaxRetriesPerRequestError` and
 * "Connection is closed.", aborted transactions) are transient; so are the
 * server's "try again later" replies. Every other reply error (WRONGTYPE,
 * syntax, ...) is a bug or bad data and is not retried.
 */

const TRANSIENT_REPLY_PREFIXES = [
  "LOADING",
  "TRYAGAIN",
  "BUSY",
  "CLUSTERDOWN",
  "MASTERDOWN",
  "READONLY",
  "NOREPLICAS",
  "MISCONF",
];

/** True when `error` is a Redis reply (the server answered with an error). */
function isReplyError(error: unknown): error is Error {
  return error instanceof Error && error.name === "ReplyError";
}

/** True for failures that may succeed when tried again. */
export function isTransientRedisError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (isReplyError(error)) return TRANSIENT_REPLY_PREFIXES.some((prefix) => error.message.startsWith(prefix));
  return true;
}
