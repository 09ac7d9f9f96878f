/**
 * One HTTP call to a provider's API (its `base_url` is trusted configuration,
 * so it goes through the plain `fetch`, not the SSRF guard), with the tool's
 * timeout and the error texts the model reads for quota, auth and timeout.
 */
import type { ProviderContext } from "./provider-context.js";
import { WebToolError } from "./web-tool-error.js";

/** What {@link providerRequest} sends. */
export interface ProviderRequest {
  readonly label: string;
  readonly url: string | URL;
  readonly method?: "GET" | "POST";
  readonly headers?: Record<string, string>;
  /** Sent as JSON. */
  readonly json?: unknown;
  /** Sent as `application/x-www-form-urlencoded`. */
  readonly form?: Record<string, string>;
}

/**
 * The text of a failed HTTP answer.
 *
 * @param label - provider name, e.g. `Brave Search`
 * @param status - HTTP status
 * @param keyHint - where the key comes from, e.g. `api_key or BRAVE_SEARCH_API_KEY`
 */
function httpFailure(label: string, status: number, body: string, keyHint?: string): WebToolError {
  if (status === 429)
    return new WebToolError(
      "PROVIDER_QUOTA",
      `${label} quota exceeded or rate limited (HTTP 429); wait before searching again or raise the plan's quota`,
    );
  if (status === 401 || status === 403)
    return new WebToolError(
      "PROVIDER_AUTH",
      `${label} refused the API key (HTTP ${status}); check ${keyHint ?? "the tool's api_key"}`,
    );
  const detail = body.trim().slice(0, 200);
  return new WebToolError("PROVIDER_HTTP", `${label} API error: HTTP ${status}${detail === "" ? "" : `: ${detail}`}`);
}

/**
 * Sends the request and parses a JSON or text answer.
 *
 * @returns the response text (callers parse JSON themselves, to name a bad shape)
 * @throws WebToolError `PROVIDER_QUOTA`, `PROVIDER_AUTH`, `PROVIDER_TIMEOUT`, `PROVIDER_HTTP`;
 *   the caller's abort reason when the run is cancelled
 */
export async function providerRequest(ctx: ProviderContext, req: ProviderRequest, keyHint?: string): Promise<string> {
  const timeout = AbortSignal.timeout(ctx.timeoutMs);
  const signal = ctx.signal === undefined ? timeout : AbortSignal.any([ctx.signal, timeout]);
  const headers: Record<string, string> = { accept: "application/json", ...req.headers };
  let body: string | undefined;
  if (req.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(req.json);
  } else if (req.form !== undefined) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(req.form).toString();
  }
  try {
    const res = await ctx.fetch(req.url, {
      method: req.method ?? (body === undefined ? "GET" : "POST"),
      headers,
      ...(body === undefined ? {} : { body }),
      signal,
    });
    const text = await res.text();
    if (!res.ok) throw httpFailure(req.label, res.status, text, keyHint);
    return text;
  } catch (err) {
    if (WebToolError.isInstance(err)) throw err;
    if (ctx.signal?.aborted === true) throw ctx.signal.reason ?? err;
    if (timeout.aborted)
      throw new WebToolError("PROVIDER_TIMEOUT", `${req.label} did not answer within ${ctx.timeoutMs / 1000}s`);
    const cause = (err as { cause?: { message?: string } }).cause?.message;
    throw new WebToolError("PROVIDER_HTTP", `${req.label} request failed: ${cause ?? String(err)}`, { cause: err });
  }
}

/**
 * Parses a provider's JSON answer.
 *
 * @throws WebToolError `PROVIDER_RESPONSE`
 */
export function parseJson(label: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new WebToolError("PROVIDER_RESPONSE", `${label} returned a non-JSON answer: ${text.slice(0, 120)}`);
  }
}

/**
 * The API key of a provider: the tool's `api_key`, else the environment
 * variable when the key is empty or whitespace (DeerFlow's fallback).
 *
 * @throws WebToolError `PROVIDER_NO_KEY`
 */
export function requireKey(ctx: ProviderContext, envName: string): string {
  const fromConfig = typeof ctx.options["api_key"] === "string" ? ctx.options["api_key"].trim() : "";
  if (fromConfig !== "") return fromConfig;
  const fromEnv = ctx.env[envName]?.trim() ?? "";
  if (fromEnv !== "") return fromEnv;
  throw new WebToolError("PROVIDER_NO_KEY", `${envName} is not configured (set the tool's api_key or ${envName})`);
}

/** A string field of a JSON object, or `""`. */
export function str(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** The array at `obj[key]`, or `[]`. */
export function arrayAt(obj: unknown, key: string): unknown[] {
  const v = (obj as Record<string, unknown> | null)?.[key];
  return Array.isArray(v) ? v : [];
}

/** `base_url` without a trailing slash. */
export function baseUrl(ctx: ProviderContext, fallback: string): string {
  const v = typeof ctx.options["base_url"] === "string" ? ctx.options["base_url"] : fallback;
  return v.replace(/\/+$/, "");
}
