/**
 * The server's account routes (`/api/v1/auth/*`, DeerFlow's, plus per-user API
 * keys and admin user management): typed calls the console's pages use. Errors
 * arrive as {@link ApiError}s whose message is the server's `detail.message`.
 */
import { apiJson } from "./api";
import { setSignedIn, setSignedOut, type Me } from "./session";

/** `GET /api/v1/auth/providers`: local login, and a button per OIDC provider. */
export interface Providers {
  readonly local: boolean;
  readonly oidc: ReadonlyArray<{ readonly id: string; readonly display_name: string }>;
}

/** One API key as `GET /api/v1/auth/api-keys` lists it (never the key itself). */
export interface ApiKeyInfo {
  readonly id: string;
  readonly name: string;
  readonly prefix: string;
  readonly created_at: string;
  readonly expires_at: string | null;
  readonly last_used_at: string | null;
}

/** A key just created: the only answer that holds the key. */
export interface CreatedApiKey extends ApiKeyInfo {
  readonly key: string;
}

/** One user as the admin routes list them. */
export interface UserInfo {
  readonly id: string;
  readonly email: string;
  readonly system_role: "admin" | "user";
  readonly oauth_provider?: string | null;
  readonly disabled?: boolean;
  readonly created_at?: string;
}

const AUTH = "/v1/auth";

/** `GET /setup-status`. */
export interface SetupStatus {
  /** The server has no user yet: the first administrator is created from the console. */
  readonly needs_setup: boolean;
  /** Self-registration is open (`auth.local.allow_registration`); absent on servers that do not say. */
  readonly registration_enabled?: boolean;
}

/** `GET /setup-status`. */
export function setupStatus(): Promise<SetupStatus> {
  return apiJson<SetupStatus>(`${AUTH}/setup-status`, { reportUnauthorized: false });
}

/** `GET /providers`. */
export function providers(): Promise<Providers> {
  return apiJson<Providers>(`${AUTH}/providers`, { reportUnauthorized: false });
}

async function loadMe(): Promise<Me> {
  const me = await apiJson<Me>(`${AUTH}/me`, { reportUnauthorized: false });
  setSignedIn(me);
  return me;
}

/**
 * `POST /login/local` (form fields, as DeerFlow's OAuth2 password form), then `GET /me`.
 *
 * @throws ApiError 401 "Incorrect email or password", 429 after too many failures
 */
export async function login(email: string, password: string, rememberMe: boolean): Promise<Me> {
  const body = new URLSearchParams({ username: email, password, remember_me: String(rememberMe) });
  await apiJson(`${AUTH}/login/local`, { method: "POST", body, reportUnauthorized: false });
  return loadMe();
}

/** `POST /initialize`: the first admin, signed in at once. */
export async function initialize(email: string, password: string): Promise<Me> {
  await apiJson(`${AUTH}/initialize`, { method: "POST", json: { email, password }, reportUnauthorized: false });
  return loadMe();
}

/**
 * `POST /register` (self-registration, when the server allows it), then signs in.
 *
 * @throws ApiError 403 "Self-registration is disabled on this deployment", 409 "Email already registered"
 */
export async function register(email: string, password: string): Promise<Me> {
  await apiJson(`${AUTH}/register`, { method: "POST", json: { email, password }, reportUnauthorized: false });
  return login(email, password, true);
}

/**
 * `POST /logout`; the console shows the login page whatever the server answered, and
 * forgets what this tab kept (last thread, runs to rejoin): the next person starts clean.
 */
export async function logout(): Promise<void> {
  try {
    await apiJson(`${AUTH}/logout`, { method: "POST", reportUnauthorized: false });
  } finally {
    try {
      window.sessionStorage.clear();
    } catch {
      // Storage disabled: nothing kept.
    }
    setSignedOut(false);
  }
}

/**
 * `POST /change-password` (the server re-issues this session and revokes the others); with
 * `newEmail`, the setup of an account that `needs_setup` (its email and password chosen at once).
 */
export async function changePassword(currentPassword: string, newPassword: string, newEmail?: string): Promise<void> {
  await apiJson(`${AUTH}/change-password`, {
    method: "POST",
    json: {
      current_password: currentPassword,
      new_password: newPassword,
      ...(newEmail === undefined ? {} : { new_email: newEmail }),
    },
  });
  await loadMe();
}

/** `GET /api-keys`: this user's keys. */
export async function listApiKeys(): Promise<ApiKeyInfo[]> {
  return (await apiJson<{ api_keys: ApiKeyInfo[] }>(`${AUTH}/api-keys`)).api_keys;
}

/** `POST /api-keys`: a new key, shown once. */
export function createApiKey(name: string, expiresInDays: number | null): Promise<CreatedApiKey> {
  return apiJson<CreatedApiKey>(`${AUTH}/api-keys`, {
    method: "POST",
    json: { name, ...(expiresInDays === null ? {} : { expires_in_days: expiresInDays }) },
  });
}

/** `DELETE /api-keys/:id`. */
export async function revokeApiKey(id: string): Promise<void> {
  await apiJson(`${AUTH}/api-keys/${encodeURIComponent(id)}`, { method: "DELETE" });
}

/** Users per `GET /users` page (the server's default; it allows up to 1000). */
export const USERS_PAGE = 100;

/** `GET /users` (admins): `limit` users from `offset`, and how many there are. */
export function listUsers(offset = 0, limit = USERS_PAGE): Promise<{ users: UserInfo[]; total: number }> {
  return apiJson<{ users: UserInfo[]; total: number }>(`${AUTH}/users?limit=${limit}&offset=${offset}`);
}

/** `POST /users` (admins). */
export function createUser(email: string, password: string, systemRole: "admin" | "user"): Promise<UserInfo> {
  return apiJson<UserInfo>(`${AUTH}/users`, {
    method: "POST",
    json: { email, password, system_role: systemRole },
  });
}

/** `PATCH /users/:id` (admins): role, or disabled (which ends the user's sessions). */
export function updateUser(
  id: string,
  patch: { system_role?: "admin" | "user"; disabled?: boolean },
): Promise<UserInfo> {
  return apiJson<UserInfo>(`${AUTH}/users/${encodeURIComponent(id)}`, { method: "PATCH", json: patch });
}

/** `DELETE /users/:id` (admins; 409 for the last admin or oneself). */
export async function deleteUser(id: string): Promise<void> {
  await apiJson(`${AUTH}/users/${encodeURIComponent(id)}`, { method: "DELETE" });
}
