/**
 * One HTTP exchange with the sandbox service through `fetch`: the per-request
 * timeout combined with the caller's signal, the API key header, and every
 * failure turned into a {@link SandboxError} (`ABORTED`, `TIMEOUT`,
 * `UNAVAILABLE`, or the code the service sent).
 */
import { SandboxError } from "../../errors.js";
import { sandboxErrorFromWire } from "../wire/errors.js";
import { API_KEY_HEADER } from "../wire/types.js";

/** A request to the service. */
export interface HttpCall {
  readonly method: "GET" | "POST" | "DELETE";
  readonly url: string;
  readonly apiKey: string | undefined;
  /** Sent as JSON when present. */
  readonly body?: unknown;
  readonly timeoutMs: number;
  /** The caller's cancellation. */
  readonly signal?: AbortSignal | undefined;
  readonly fetch: typeof fetch;
  /** What is being done, for messages (e.g. `POST /v1/file/read`); never a host path. */
  readonly what: string;
  /** Non-2xx statuses returned to the caller instead of thrown (e.g. 404 for a liveness check). */
  readonly acceptStatuses?: readonly number[];
}

/** A parsed answer. */
export interface HttpAnswer {
  readonly status: number;
  /** Parsed JSON, `undefined` for an empty or non-JSON body. */
  readonly body: unknown;
}

function translate(err: unknown, call: HttpCall, timeout: AbortSignal): SandboxError {
  if (SandboxError.isInstance(err)) return err;
  if (call.signal?.aborted === true) return new SandboxError("ABORTED", "The operation was aborted", { cause: err });
  if (timeout.aborted)
    return new SandboxError("TIMEOUT", `Sandbox service did not answer ${call.what} within ${call.timeoutMs} ms`, {
      cause: err,
    });
  const cause = err instanceof Error ? (err.cause as { code?: unknown } | undefined) : undefined;
  const reason = typeof cause?.code === "string" ? cause.code : err instanceof Error ? err.message : String(err);
  return new SandboxError("UNAVAILABLE", `Sandbox service is unreachable: ${call.what} failed (${reason})`, {
    cause: err,
  });
}

function parseJson(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Sends one request and returns the raw response after the status check.
 *
 * @param call - The request.
 * @param read - Reads the 2xx body (inside the timeout and error translation).
 * @returns What `read` returned, with the status.
 * @throws SandboxError for failures and non-2xx answers not in `acceptStatuses`.
 */
export async function exchange<T>(
  call: HttpCall,
  read: (response: Response) => Promise<T>,
): Promise<{ status: number; value: T | undefined; body: unknown }> {
  const timeout = AbortSignal.timeout(call.timeoutMs);
  const signal = call.signal === undefined ? timeout : AbortSignal.any([call.signal, timeout]);
  const headers: Record<string, string> = { accept: "application/json" };
  if (call.apiKey !== undefined) headers[API_KEY_HEADER] = call.apiKey;
  if (call.body !== undefined) headers["content-type"] = "application/json";
  try {
    const response = await call.fetch(call.url, {
      method: call.method,
      headers,
      signal,
      ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
    });
    if (response.ok) return { status: response.status, value: await read(response), body: undefined };
    const body = parseJson(await response.text());
    if (call.acceptStatuses?.includes(response.status) === true)
      return { status: response.status, value: undefined, body };
    throw sandboxErrorFromWire(response.status, body, call.what);
  } catch (err) {
    throw translate(err, call, timeout);
  }
}

/**
 * Sends a request and parses the JSON answer.
 *
 * @param call - The request.
 * @returns Status and parsed body.
 * @throws SandboxError for failures, non-2xx answers (unless accepted) and a 2xx body that is not JSON.
 */
export async function callJson(call: HttpCall): Promise<HttpAnswer> {
  const answer = await exchange(call, async (response) => {
    const text = await response.text();
    const body = parseJson(text);
    if (body === undefined && text !== "")
      throw new SandboxError("UNAVAILABLE", `Sandbox service sent a malformed answer to ${call.what}`);
    return body;
  });
  return { status: answer.status, body: answer.value ?? answer.body };
}

/**
 * Reads the `data` of a `{ success: true, data }` envelope.
 *
 * @param body - A parsed 2xx body.
 * @param what - For the error message.
 * @returns The data object.
 * @throws SandboxError `UNAVAILABLE` when the envelope is missing.
 */
export function envelopeData(body: unknown, what: string): Record<string, unknown> {
  const data = typeof body === "object" && body !== null ? (body as { data?: unknown }).data : undefined;
  if (typeof data !== "object" || data === null)
    throw new SandboxError("UNAVAILABLE", `Sandbox service sent a malformed answer to ${what}`);
  return data as Record<string, unknown>;
}
