/**
 * The signed-in account when the server has accounts (`auth.enabled`): the
 * session lives in the server's HttpOnly `access_token` cookie, so this module
 * only knows who `GET /api/v1/auth/me` says is signed in, and adds the CSRF
 * double-submit header (`X-CSRF-Token` = the `csrf_token` cookie) to the
 * requests that change something.
 */
import { createStore, useStoreValue } from "./store";

/** `GET /api/v1/auth/me`. */
export interface Me {
  readonly id: string;
  readonly email: string;
  readonly system_role: "admin" | "user";
  readonly oauth_provider: string | null;
  readonly needs_setup: boolean;
}

/** Where the console stands with the server's accounts. */
export type SessionState =
  | { readonly status: "unknown" }
  | { readonly status: "anonymous"; readonly expired: boolean }
  | { readonly status: "signed-in"; readonly me: Me };

const session = createStore<SessionState>({ status: "unknown" });
let accountsMode = false;

/** The methods the server checks the CSRF header on. */
const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** The value of cookie `name` on this page (`null` when absent). */
function readCookie(name: string): string | null {
  for (const part of document.cookie.split(";")) {
    const eq = part.indexOf("=");
    if (eq !== -1 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return null;
}

/**
 * Adds `X-CSRF-Token` to `headers` for a state-changing `method` when the
 * server has set the `csrf_token` cookie (only session cookies need it; without
 * the cookie nothing is added, as in API-key mode).
 */
export function addCsrfHeader(method: string | undefined, headers: Headers): void {
  if (!UNSAFE.has((method ?? "GET").toUpperCase())) return;
  const token = readCookie("csrf_token");
  if (token !== null && !headers.has("x-csrf-token")) headers.set("X-CSRF-Token", token);
}

/** Set once from `GET /api/info`: the server has accounts (login page, cookies, CSRF). */
export function setAccountsMode(on: boolean): void {
  accountsMode = on;
}

/** True when the server has accounts. */
export function isAccountsMode(): boolean {
  return accountsMode;
}

/** Records who is signed in (after login, initialize or `me`). */
export function setSignedIn(me: Me): void {
  session.set({ status: "signed-in", me });
}

/**
 * Called on a 401 in accounts mode (and after logout): the login page is shown.
 *
 * @param expired - true when a signed-in session stopped working (the page says so)
 */
export function setSignedOut(expired = false): void {
  const state = session.get();
  if (state.status === "anonymous" && state.expired === expired) return;
  session.set({ status: "anonymous", expired: expired && state.status === "signed-in" });
}

/**
 * Asks the server who is signed in (`GET /api/v1/auth/me`): a 401 means nobody.
 *
 * @throws Error when the server cannot be reached or answers something else
 */
export async function refreshSession(): Promise<SessionState> {
  const res = await fetch("/api/v1/auth/me", { credentials: "same-origin", headers: { accept: "application/json" } });
  if (res.status === 401) {
    session.set({ status: "anonymous", expired: false });
  } else if (res.ok) {
    session.set({ status: "signed-in", me: (await res.json()) as Me });
  } else {
    throw new Error(`GET /api/v1/auth/me answered ${res.status}`);
  }
  return session.get();
}

/** The session as React state. */
export function useSession(): SessionState {
  return useStoreValue(session);
}
