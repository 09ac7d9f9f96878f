/**
 * Concurrent callers, spread over every instance given (one store, or several
 * sharing a backend like the instances of a deployment).
 */
import type { ConformanceExpect } from "@deerflow/kernel";
import { RuntimeError } from "../../errors.js";
import { describeError, failureKey, newApiKey, newSession, newUser, settle, type AddTest } from "./context.js";

/** The codes of the rejections, sorted. */
function codes(failed: unknown[]): string[] {
  return failed.map((err) => (RuntimeError.isInstance(err) ? err.code : describeError(err))).sort();
}

export function raceTests(test: AddTest, expect: ConformanceExpect): void {
  test("10 concurrent createFirstAdmin calls: exactly one wins, the others get ALREADY_INITIALIZED", async (stores) => {
    const { ok, failed } = await settle(
      Array.from({ length: 10 }, (_, i) =>
        stores[i % stores.length]!.createFirstAdmin(newUser({ systemRole: "admin" })),
      ),
    );
    expect(ok).toHaveLength(1);
    expect(codes(failed)).toEqual(Array(9).fill("ALREADY_INITIALIZED"));
    expect(await stores[0]!.countUsers()).toBe(1);
    expect((await stores.at(-1)!.listUsers())[0]?.userId).toBe(ok[0]?.userId);
  });

  test("10 concurrent createUser calls with one email in different cases: one user, nine EMAIL_EXISTS", async (stores) => {
    const { ok, failed } = await settle(
      Array.from({ length: 10 }, (_, i) =>
        stores[i % stores.length]!.createUser(newUser({ email: i % 2 ? "Race@Example.com" : "race@EXAMPLE.com" })),
      ),
    );
    expect(ok).toHaveLength(1);
    expect(codes(failed)).toEqual(Array(9).fill("EMAIL_EXISTS"));
    expect(await stores[0]!.countUsers()).toBe(1);
  });

  test("20 concurrent login failures count 20 and lock exactly from the fifth", async (stores) => {
    const key = failureKey();
    const policy = { maxFailures: 5, windowMs: 60_000, lockMs: 300_000 };
    const now = new Date();
    const states = await Promise.all(
      Array.from({ length: 20 }, (_, i) => stores[i % stores.length]!.registerLoginFailure(key, policy, now)),
    );
    expect(states.map((s) => s.failures).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const lockedUntil = new Date(now.getTime() + 300_000).toISOString();
    for (const state of states) expect(state.lockedUntil).toBe(state.failures >= 5 ? lockedUntil : null);
    expect(await stores.at(-1)!.loginLockedUntil(key, now)).toBe(lockedUntil);
  });

  test("10 concurrent token-version bumps add 10", async (stores) => {
    const user = await stores[0]!.createUser(newUser());
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        stores[i % stores.length]!.updateUser(user.userId, { bumpTokenVersion: true }),
      ),
    );
    expect((await stores.at(-1)!.getUser(user.userId))?.tokenVersion).toBe(10);
  });

  test("10 concurrent revocations of one key: exactly one reports it", async (stores) => {
    const user = await stores[0]!.createUser(newUser());
    const key = newApiKey(user.userId);
    await stores[0]!.createApiKey(key);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => stores[i % stores.length]!.revokeApiKey(user.userId, key.keyId)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  test("a user deleted while sessions are created leaves no orphan session", async (stores) => {
    const user = await stores[0]!.createUser(newUser());
    const sessions = Array.from({ length: 10 }, () => newSession(user.userId));
    const outcome = await settle<unknown>([
      ...sessions.map((s, i) => stores[i % stores.length]!.createSession(s)),
      stores.at(-1)!.deleteUser(user.userId),
    ]);
    expect(codes(outcome.failed).every((code) => code === "USER_NOT_FOUND")).toBe(true);
    for (const s of sessions) expect(await stores[0]!.getSession(s.sessionId)).toBeUndefined();
  });
}
