/** `accountStoreConformance`: registers the account-store kit as one suite of the injected test functions. */
import { apiKeyTests } from "./account-store/api-keys.js";
import { type AccountStoreConformanceOptions } from "./account-store/context.js";
import { registerStoreKit } from "./store-instances.js";
import { hostileTests } from "./account-store/hostile.js";
import { loginFailureTests } from "./account-store/login-failures.js";
import { raceTests } from "./account-store/races.js";
import { sessionTests } from "./account-store/sessions.js";
import { userTests } from "./account-store/users.js";

export type {
  AccountStoreConformanceOptions,
  AccountStoreHandle,
  AccountStoreInstances,
  AccountStoreRunner,
  MakeAccountStore,
  MakeAccountStoreInstances,
} from "./account-store/context.js";

/**
 * Registers the account-store conformance suite: users (normalised unique
 * emails, OIDC identities, the first admin, lists, counts, updates, deletion
 * cascading to sessions and keys), sessions (expiry, deletion of one, of a
 * user's but one, of expired ones), API keys (lookup by hash, revocation by
 * the owner only), login-failure counters (locking, window and lock expiry),
 * races of concurrent callers and hostile input. Every test gets a fresh,
 * empty store from `makeStore`; the kit closes it after the test and then
 * calls its `cleanup`. `MemoryAccountStore`, `SqliteAccountStore` and
 * `PostgresAccountStore` pass it.
 *
 * @param options - `name`, `makeStore`, the test functions; `makeInstances` to
 *   also race callers across several instances of a shared store; `timeoutScale`.
 * @throws TypeError when `timeoutScale` is not positive.
 *
 * @example
 * ```ts
 * import { afterEach, beforeEach, describe, expect, it } from "vitest";
 * import { accountStoreConformance } from "@deerflow/runtime/testing";
 *
 * accountStoreConformance({
 *   name: "MyAccountStore",
 *   makeStore: async () => {
 *     const store = new MyAccountStore({ url, namespace: crypto.randomUUID() });
 *     return { store, cleanup: () => dropNamespace(store) };
 *   },
 *   describe, it, expect, beforeEach, afterEach,
 * });
 * ```
 */
export function accountStoreConformance(options: AccountStoreConformanceOptions): void {
  const groups = [
    ["users", userTests],
    ["sessions", sessionTests],
    ["API keys", apiKeyTests],
    ["login failures", loginFailureTests],
    ["races", raceTests],
    ["hostile input", hostileTests],
  ] as const;
  registerStoreKit("accountStoreConformance", options, groups, raceTests);
}
