/** Sessions: storage, expiry, deletion of one, of a user's, of expired ones. */
import type { ConformanceExpect } from "@deerflow/kernel";
import { expectRuntimeError, newSession, newUser, randomHash, type AddTest } from "./context.js";

export function sessionTests(test: AddTest, expect: ConformanceExpect): void {
  test("a session round-trips with its timestamps normalised to UTC", async ([store]) => {
    const user = await store!.createUser(newUser());
    const session = newSession(user.userId, {
      persistent: true,
      tokenVersion: 3,
      createdAt: "2030-01-01T02:00:00+02:00",
      expiresAt: "2999-06-01T12:00:00.000Z",
      userAgent: null,
      ip: null,
    });
    await store!.createSession(session);
    expect(await store!.getSession(session.sessionId)).toEqual({
      ...session,
      createdAt: "2030-01-01T00:00:00.000Z",
    });
    expect(await store!.getSession(randomHash())).toBeUndefined();
  });

  test("an expired session is not returned, and deleteExpiredSessions removes expired ones only", async ([store]) => {
    const user = await store!.createUser(newUser());
    const now = Date.now();
    const expired = newSession(user.userId, { expiresAt: new Date(now - 1000).toISOString() });
    const soon = newSession(user.userId, { expiresAt: new Date(now + 400).toISOString() });
    const live = newSession(user.userId);
    for (const s of [expired, soon, live]) await store!.createSession(s);
    expect(await store!.getSession(expired.sessionId)).toBeUndefined();
    expect(await store!.getSession(soon.sessionId)).toEqual(soon);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await store!.getSession(soon.sessionId)).toBeUndefined();
    expect(await store!.deleteExpiredSessions(new Date(now - 2000))).toBe(0);
    expect(await store!.deleteExpiredSessions()).toBe(2);
    expect(await store!.deleteExpiredSessions()).toBe(0);
    expect(await store!.getSession(live.sessionId)).toEqual(live);
    expect(await store!.deleteExpiredSessions(new Date(Date.parse(live.expiresAt)))).toBe(1);
    expect(await store!.deleteSession(live.sessionId)).toBe(false);
  });

  test("createSession refuses an unknown user, a taken id and an id that is not SHA-256 hex", async ([store]) => {
    const user = await store!.createUser(newUser());
    await expectRuntimeError(store!.createSession(newSession("ghost-user")), "USER_NOT_FOUND");
    const session = newSession(user.userId);
    await store!.createSession(session);
    await expectRuntimeError(store!.createSession({ ...session, ip: "198.51.100.1" }), "INVALID_ARGUMENT");
    expect((await store!.getSession(session.sessionId))?.ip).toBe(session.ip);
    for (const sessionId of ["raw-cookie-token", session.sessionId.toUpperCase(), `${session.sessionId}0`]) {
      await expectRuntimeError(store!.createSession(newSession(user.userId, { sessionId })), "INVALID_ARGUMENT");
    }
    for (const overrides of [{ expiresAt: "tomorrow" }, { tokenVersion: -1 }, { tokenVersion: 1.5 }]) {
      await expectRuntimeError(store!.createSession(newSession(user.userId, overrides)), "INVALID_ARGUMENT");
    }
  });

  test("deleteSession removes one session", async ([store]) => {
    const user = await store!.createUser(newUser());
    const [a, b] = [newSession(user.userId), newSession(user.userId)];
    await store!.createSession(a);
    await store!.createSession(b);
    expect(await store!.deleteSession(a.sessionId)).toBe(true);
    expect(await store!.deleteSession(a.sessionId)).toBe(false);
    expect(await store!.getSession(a.sessionId)).toBeUndefined();
    expect(await store!.getSession(b.sessionId)).toEqual(b);
  });

  test("deleteUserSessions removes the user's sessions but the excepted one, and no one else's", async ([store]) => {
    const user = await store!.createUser(newUser());
    const other = await store!.createUser(newUser());
    const mine = [newSession(user.userId), newSession(user.userId), newSession(user.userId)];
    const theirs = newSession(other.userId);
    for (const s of [...mine, theirs]) await store!.createSession(s);
    expect(await store!.deleteUserSessions(user.userId, { exceptSessionId: mine[0]!.sessionId })).toBe(2);
    expect(await store!.getSession(mine[0]!.sessionId)).toEqual(mine[0]);
    expect(await store!.getSession(mine[1]!.sessionId)).toBeUndefined();
    expect(await store!.getSession(theirs.sessionId)).toEqual(theirs);
    // Excepting another user's session keeps nothing of this user's.
    expect(await store!.deleteUserSessions(user.userId, { exceptSessionId: theirs.sessionId })).toBe(1);
    expect(await store!.deleteUserSessions(user.userId)).toBe(0);
    expect(await store!.getSession(theirs.sessionId)).toEqual(theirs);
  });
}
