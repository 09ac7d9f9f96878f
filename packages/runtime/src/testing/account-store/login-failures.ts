/** Login-failure counters: counting, locking, window and lock expiry, clearing. */
import type { ConformanceExpect } from "@deerflow/kernel";
import type { LoginFailurePolicy } from "../../accounts/account-store.js";
import { at, expectRuntimeError, failureKey, type AddTest } from "./context.js";

/** Three failures within a minute lock for five minutes. */
const POLICY: LoginFailurePolicy = { maxFailures: 3, windowMs: 60_000, lockMs: 300_000 };

export function loginFailureTests(test: AddTest, expect: ConformanceExpect): void {
  test("failures count up and the one reaching maxFailures locks the key for lockMs", async ([store]) => {
    const key = failureKey();
    expect(await store!.loginLockedUntil(key, at(0))).toBeNull();
    expect(await store!.registerLoginFailure(key, POLICY, at(0))).toEqual({ failures: 1, lockedUntil: null });
    expect(await store!.registerLoginFailure(key, POLICY, at(10_000))).toEqual({ failures: 2, lockedUntil: null });
    expect(await store!.loginLockedUntil(key, at(10_000))).toBeNull();
    const lockedUntil = at(20_000 + 300_000).toISOString();
    expect(await store!.registerLoginFailure(key, POLICY, at(20_000))).toEqual({ failures: 3, lockedUntil });
    expect(await store!.loginLockedUntil(key, at(20_000))).toBe(lockedUntil);
    expect(await store!.loginLockedUntil(key, at(319_999))).toBe(lockedUntil);
    expect(await store!.loginLockedUntil(key, at(320_000))).toBeNull();
  });

  test("failures older than the window are forgotten", async ([store]) => {
    const key = failureKey();
    await store!.registerLoginFailure(key, POLICY, at(0));
    await store!.registerLoginFailure(key, POLICY, at(59_999));
    expect(await store!.registerLoginFailure(key, POLICY, at(60_000))).toEqual({ failures: 1, lockedUntil: null });
    expect(await store!.registerLoginFailure(key, POLICY, at(61_000))).toEqual({ failures: 2, lockedUntil: null });
  });

  test("failures during a lock are counted but do not extend it; after the lock a new window starts", async ([
    store,
  ]) => {
    const key = failureKey();
    for (const t of [0, 1, 2]) await store!.registerLoginFailure(key, POLICY, at(t));
    const lockedUntil = at(2 + 300_000).toISOString();
    expect(await store!.registerLoginFailure(key, POLICY, at(200_000))).toEqual({ failures: 4, lockedUntil });
    expect(await store!.loginLockedUntil(key, at(250_000))).toBe(lockedUntil);
    expect(await store!.registerLoginFailure(key, POLICY, at(300_002))).toEqual({ failures: 1, lockedUntil: null });
    expect(await store!.loginLockedUntil(key, at(300_002))).toBeNull();
  });

  test("clearLoginFailures forgets a key's failures and lock; keys are independent", async ([store]) => {
    const [key, other] = [failureKey(), failureKey()];
    for (const t of [0, 1, 2]) await store!.registerLoginFailure(key, POLICY, at(t));
    await store!.registerLoginFailure(other, POLICY, at(0));
    expect(await store!.loginLockedUntil(key, at(3))).not.toBeNull();
    expect(await store!.loginLockedUntil(other, at(3))).toBeNull();
    await store!.clearLoginFailures(key);
    expect(await store!.loginLockedUntil(key, at(3))).toBeNull();
    expect(await store!.registerLoginFailure(key, POLICY, at(4))).toEqual({ failures: 1, lockedUntil: null });
    expect(await store!.registerLoginFailure(other, POLICY, at(4))).toEqual({ failures: 2, lockedUntil: null });
    await store!.clearLoginFailures("never-seen");
  });

  test("maxFailures 1 locks at the first failure; the store's clock is used without now", async ([store]) => {
    const key = failureKey();
    const state = await store!.registerLoginFailure(key, { maxFailures: 1, windowMs: 1000, lockMs: 60_000 });
    const lockedUntil = Date.parse(state.lockedUntil ?? "");
    expect(state.failures).toBe(1);
    expect(Math.abs(lockedUntil - (Date.now() + 60_000))).toBeLessThan(10_000);
    expect(await store!.loginLockedUntil(key)).toBe(state.lockedUntil);
  });

  test("malformed policies, keys and dates are refused", async ([store]) => {
    const key = failureKey();
    for (const policy of [
      { ...POLICY, maxFailures: 0 },
      { ...POLICY, maxFailures: 2.5 },
      { ...POLICY, windowMs: 0 },
      { ...POLICY, lockMs: -1 },
      { ...POLICY, lockMs: Number.POSITIVE_INFINITY },
    ]) {
      await expectRuntimeError(store!.registerLoginFailure(key, policy, at(0)), "INVALID_ARGUMENT");
    }
    await expectRuntimeError(store!.registerLoginFailure("", POLICY, at(0)), "INVALID_ARGUMENT");
    await expectRuntimeError(store!.registerLoginFailure("k".repeat(1025), POLICY, at(0)), "INVALID_ARGUMENT");
    await expectRuntimeError(store!.registerLoginFailure(key, POLICY, new Date(Number.NaN)), "INVALID_ARGUMENT");
    expect(await store!.loginLockedUntil(key, at(0))).toBeNull();
  });
}
