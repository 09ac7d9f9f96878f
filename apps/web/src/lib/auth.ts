/**
 * The API key of this browser tab (sessionStorage: forgotten when the tab closes),
 * and a tiny store so components re-render when it changes or a call is refused.
 */
import { createStore, useStoreValue } from "./store";

const STORAGE_KEY = "deerflow:api-key";

interface AuthSnapshot {
  readonly apiKey: string | null;
  /** Set when the server answered 401: the prompt is shown (again). */
  readonly refused: boolean;
}

const auth = createStore<AuthSnapshot>({ apiKey: readStored(), refused: false });

function readStored(): string | null {
  try {
    return window.sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

/** The current key, or `null`. */
export function getApiKey(): string | null {
  return auth.get().apiKey;
}

/** Stores (or with `null` forgets) the key for this tab. */
export function setApiKey(key: string | null): void {
  try {
    if (key === null) window.sessionStorage.removeItem(STORAGE_KEY);
    else window.sessionStorage.setItem(STORAGE_KEY, key);
  } catch {
    // Storage disabled: the key lives in memory only.
  }
  auth.set({ apiKey: key, refused: false });
}

/** Called by the API helpers on a 401: the key prompt is shown. */
export function reportUnauthorized(): void {
  const current = auth.get();
  if (!current.refused) auth.set({ ...current, refused: true });
}

/** Headers carrying the key (none without a key). */
export function authHeaders(): Record<string, string> {
  const { apiKey } = auth.get();
  return apiKey === null ? {} : { Authorization: `Bearer ${apiKey}` };
}

/** The key and whether the server refused it, as React state. */
export function useAuth(): AuthSnapshot {
  return useStoreValue(auth);
}
