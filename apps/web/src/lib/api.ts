/**
 * Calls to the server's own API (`/api` on this origin): JSON helpers that add
 * the API key and turn `{"detail": ...}` errors into {@link ApiError}s.
 */
import { Client } from "@langchain/langgraph-sdk";
import { authHeaders, getApiKey, reportUnauthorized } from "./auth";
import { addCsrfHeader, isAccountsMode, setSignedOut } from "./session";
import type { WireFinding } from "@deerflow/gateway";

/** The API root on this origin, e.g. `http://127.0.0.1:2024/api`. */
export function apiUrl(): string {
  return `${window.location.origin}/api`;
}

/** The assistant the console talks to (DeerFlow's lead agent). */
export const ASSISTANT_ID = "lead_agent";

/** A failed API call: the status and the server's `detail`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: unknown,
  ) {
    super(describeDetail(detail, status));
    this.name = "ApiError";
  }

  /** The scanner findings of a refused skill install or edit (empty otherwise). */
  get findings(): readonly WireFinding[] {
    const d = this.detail as { findings?: unknown } | null;
    return typeof d === "object" && d !== null && Array.isArray(d.findings) ? (d.findings as WireFinding[]) : [];
  }
}

/** A readable text for a `detail`: a string, `{message}`, or FastAPI's 422 list. */
function describeDetail(detail: unknown, status?: number): string {
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) {
    return detail
      .map(
        (d: { loc?: unknown[]; msg?: string }) =>
          `${Array.isArray(d.loc) ? d.loc.join(".") + ": " : ""}${d.msg ?? JSON.stringify(d)}`,
      )
      .join("; ");
  }
  if (typeof detail === "object" && detail !== null && typeof (detail as { message?: unknown }).message === "string") {
    return (detail as { message: string }).message;
  }
  return status === undefined ? "Request failed" : `Request failed with status ${status}`;
}

/** A 401 means the key was refused (API-key mode) or the session ended (accounts mode). */
function unauthorized(): void {
  if (isAccountsMode()) setSignedOut(true);
  else reportUnauthorized();
}

/** Options of {@link apiFetch} beyond `fetch`'s. */
export interface ApiInit extends RequestInit {
  /** False for calls whose 401 is an answer, not a lost session (a wrong password at login). */
  readonly reportUnauthorized?: boolean;
}

/**
 * `fetch` of `/api<path>` with the key, or the session cookie and its CSRF header;
 * throws {@link ApiError} unless 2xx.
 */
export async function apiFetch(path: string, init: ApiInit = {}): Promise<Response> {
  const { reportUnauthorized: report = true, ...rest } = init;
  const headers = new Headers(rest.headers);
  for (const [k, v] of Object.entries(authHeaders())) headers.set(k, v);
  addCsrfHeader(rest.method, headers);
  const res = await fetch(`${apiUrl()}${path}`, { credentials: "same-origin", ...rest, headers });
  if (res.ok) return res;
  if (res.status === 401 && report) unauthorized();
  let detail: unknown = res.statusText;
  try {
    const body = (await res.json()) as { detail?: unknown };
    detail = body.detail ?? body;
  } catch {
    // Not JSON.
  }
  throw new ApiError(res.status, detail);
}

/** {@link apiFetch} with a JSON body (if any) and a JSON answer. */
export async function apiJson<T>(path: string, init: ApiInit & { json?: unknown } = {}): Promise<T> {
  const { json, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (json !== undefined) headers.set("content-type", "application/json");
  const res = await apiFetch(path, { ...rest, headers, ...(json === undefined ? {} : { body: JSON.stringify(json) }) });
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}

/**
 * SDK caller options (one object: `useStream` rebuilds its client when they change): the
 * CSRF header on the SDK's writes (session cookies); a 401 shows the key prompt or the login page.
 */
export const CALLER_OPTIONS = {
  maxRetries: 1,
  fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    addCsrfHeader(init?.method, headers);
    const res = await fetch(input, { credentials: "same-origin", ...init, headers });
    if (res.status === 401) unauthorized();
    return res;
  },
};

/** A LangGraph SDK client on this origin's API with the current key. */
export function sdkClient(): Client {
  return new Client({ apiUrl: apiUrl(), apiKey: getApiKey(), callerOptions: CALLER_OPTIONS });
}

/** The message of any thrown value. */
export function errorText(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}

/** `1234` → `1.2 KB`. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

/** An ISO date or epoch seconds as a short local date and time. */
export function formatTime(value: string | number | undefined | null): string {
  if (value === undefined || value === null || value === "") return "";
  const date = typeof value === "number" ? new Date(value * 1000) : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}
