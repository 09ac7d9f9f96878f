/**
 * The account-store kit's context: its option types (the fresh store per
 * test comes from `../store-instances.ts`, shared with the run- and
 * assistant-store kits) and input fixtures with unique ids.
 */
import { createHash, randomUUID } from "node:crypto";
import type { AccountStore, ApiKeyRecord, NewUser, SessionRecord } from "../../accounts/account-store.js";
import type {
  AddStoresTest,
  StoreHandle,
  StoreInstances,
  StoreKitOptions,
  StoreKitRunner,
} from "../store-instances.js";

export { describeError, expectRuntimeError, ISO_UTC, settle } from "../run-store/context.js";

/** What a store factory returns; `cleanup` runs after the kit closed the store (drop schemas, delete files). */
export type AccountStoreHandle = StoreHandle<AccountStore>;

/** Creates an empty store (no users); called once per test. */
export type MakeAccountStore = () => Promise<AccountStoreHandle>;

/** Several stores over one shared, empty backend, each with its own connections (like separate server instances). */
export type AccountStoreInstances = StoreInstances<AccountStore>;

/** Creates `count` instances over one fresh, empty backend; called once per test. */
export type MakeAccountStoreInstances = (count: number) => Promise<AccountStoreInstances>;

/** The test functions the account-store kit takes: vitest's or jest's, or `nodeTestRunner(nodeTest)`. */
export type AccountStoreRunner = StoreKitRunner;

/** The one argument of `accountStoreConformance`. */
export type AccountStoreConformanceOptions = StoreKitOptions<AccountStore>;

/** Registers one test of a group; `stores` has one entry, or several for cross-instance runs. */
export type AddTest = AddStoresTest<AccountStore>;

/** A unique email with a readable prefix (mixed case, to exercise normalisation). */
function email(prefix = "user"): string {
  return `${prefix}-${randomUUID().slice(0, 8)}@Example.COM`;
}

/** A local user with a unique email; fields can be overridden. */
export function newUser(overrides: Partial<NewUser> = {}): NewUser {
  return {
    email: email(),
    passwordHash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA",
    systemRole: "user",
    ...overrides,
  };
}

/** SHA-256 hex of fresh random bytes (a session id or key hash). */
export function randomHash(): string {
  return createHash("sha256").update(randomUUID()).digest("hex");
}

/** A session of `userId` valid for an hour from now; fields can be overridden. */
export function newSession(userId: string, overrides: Partial<SessionRecord> = {}): SessionRecord {
  const now = Date.now();
  return {
    sessionId: randomHash(),
    userId,
    tokenVersion: 0,
    persistent: false,
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + 3_600_000).toISOString(),
    userAgent: "conformance/1.0",
    ip: "203.0.113.7",
    ...overrides,
  };
}

/** An API key of `userId`; fields can be overridden. */
export function newApiKey(userId: string, overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  const keyHash = randomHash();
  return {
    keyId: `key-${randomUUID()}`,
    userId,
    name: "ci",
    prefix: `df_${keyHash.slice(0, 8)}`,
    keyHash,
    createdAt: new Date().toISOString(),
    expiresAt: null,
    lastUsedAt: null,
    revokedAt: null,
    ...overrides,
  };
}

/** A login-failure key no other test uses. */
export function failureKey(): string {
  return `ip:198.51.100.${randomUUID()}`;
}

/** A fixed instant for counters driven by explicit `now` arguments. */
const BASE_TIME = Date.parse("2030-01-01T00:00:00.000Z");

/** `BASE_TIME + ms` as a Date. */
export function at(ms: number): Date {
  return new Date(BASE_TIME + ms);
}
