/**
 * Route-level fallback messages for server failures.
 */
import { GatewayError } from "../errors.js";
import { toErrorResponse } from "./error-response.js";

/**
 * Runs `task`; client errors (anything {@link toErrorResponse} maps below 500)
 * pass through unchanged, server failures become a 500 with `fallback` as the
 * detail, the original kept as `cause` for the log. DeerFlow appends the
 * exception text to such messages; the gateway never sends it.
 *
 * @param fallback - e.g. `"Failed to load skills."`.
 * @param task - the route's work.
 * @returns what `task` returns.
 * @throws the client error, or GatewayError `INTERNAL`.
 */
export async function guarded<T>(fallback: string, task: () => Promise<T>): Promise<T> {
  try {
    return await task();
  } catch (err) {
    if (!toErrorResponse(err).serverError) throw err;
    throw new GatewayError("INTERNAL", fallback, { cause: err });
  }
}
