/** Hostile input: huge, unicode, quoted and control-character values, SQL and LIKE metacharacters. */
import type { ConformanceExpect } from "@deerflow/kernel";
import { expectRuntimeError, newSession, newUser, randomHash, type AddTest } from "./context.js";

export function hostileTests(test: AddTest, expect: ConformanceExpect): void {
  test("an email of 320 characters is stored; one of 321, or a huge one, is refused", async ([store]) => {
    const longest = `${"a".repeat(320 - "@example.com".length)}@example.com`;
    const user = await store!.createUser(newUser({ email: longest.toUpperCase() }));
    expect(user.email).toBe(longest);
    expect((await store!.getUserByEmail(longest))?.userId).toBe(user.userId);
    await expectRuntimeError(store!.createUser(newUser({ email: `a${longest}` })), "INVALID_ARGUMENT");
    await expectRuntimeError(store!.createUser(newUser({ email: "x".repeat(1_000_000) })), "INVALID_ARGUMENT");
    expect(await store!.getUserByEmail("x".repeat(1_000_000))).toBeUndefined();
    expect(await store!.countUsers()).toBe(1);
  });

  test("unicode emails are stored lowercase NFC and found from any case or normalisation form", async ([store]) => {
    const composed = "Zoë.Ünïcødé@Exämple.com".normalize("NFC");
    const user = await store!.createUser(newUser({ email: composed }));
    expect(user.email).toBe(composed.toLowerCase());
    const decomposed = composed.toUpperCase().normalize("NFD");
    expect(decomposed).not.toBe(composed.toUpperCase());
    expect((await store!.getUserByEmail(decomposed))?.userId).toBe(user.userId);
    await expectRuntimeError(store!.createUser(newUser({ email: decomposed })), "EMAIL_EXISTS");
    const emoji = await store!.createUser(newUser({ email: "🦌+deer@例え.jp" }));
    expect((await store!.getUserByEmail("🦌+DEER@例え.JP"))?.userId).toBe(emoji.userId);
  });

  test("quotes and SQL in values are stored verbatim and never widen a lookup", async ([store]) => {
    const nasty = `o'brien"; DROP TABLE users; --@example.com`;
    const user = await store!.createUser(
      newUser({ email: nasty, passwordHash: "'); DELETE FROM users; --", oauthProvider: "p'", oauthSubject: '"s"' }),
    );
    expect(await store!.getUser(user.userId)).toEqual(user);
    expect((await store!.getUserByEmail(nasty))?.passwordHash).toBe("'); DELETE FROM users; --");
    expect((await store!.getUserByOAuth("p'", '"s"'))?.userId).toBe(user.userId);
    for (const probe of ["' OR '1'='1", "%", "_%@%", "*", "\\", `${nasty.slice(0, 5)}%`]) {
      expect(await store!.getUserByEmail(probe), `email ${probe}`).toBeUndefined();
      expect(await store!.getUser(probe), `user ${probe}`).toBeUndefined();
      expect(await store!.getUserByOAuth(probe, probe)).toBeUndefined();
      expect(await store!.getSession(probe)).toBeUndefined();
      expect(await store!.findApiKey(probe)).toBeUndefined();
      expect(await store!.revokeApiKey(user.userId, probe)).toBe(false);
      expect(await store!.deleteSession(probe)).toBe(false);
      expect(await store!.deleteUser(probe)).toBe(false);
    }
    expect(await store!.countUsers()).toBe(1);
  });

  test("control characters, NUL and lone surrogates are refused where text is stored", async ([store]) => {
    for (const email of [
      "a\u0000b@example.com",
      "line\nbreak@example.com",
      "bell\u0007@example.com",
      "\uD800@x.com",
      "",
    ]) {
      await expectRuntimeError(store!.createUser(newUser({ email })), "INVALID_ARGUMENT");
      expect(await store!.getUserByEmail(email)).toBeUndefined();
    }
    await expectRuntimeError(store!.createUser(newUser({ passwordHash: "h\u0000" })), "INVALID_ARGUMENT");
    await expectRuntimeError(store!.createUser(newUser({ systemRole: "superuser" as "admin" })), "INVALID_ARGUMENT");
    const user = await store!.createUser(newUser());
    await expectRuntimeError(store!.updateUser(user.userId, { email: "x\u0000@example.com" }), "INVALID_ARGUMENT");
    await expectRuntimeError(
      store!.createSession(newSession(user.userId, { ip: "1.2.3.4\u0000" })),
      "INVALID_ARGUMENT",
    );
    expect(await store!.getUser(user.userId)).toEqual(user);
  });

  test("lookups by values no store can hold (NUL, controls, lone surrogates) find nothing and fail nothing", async ([
    store,
  ]) => {
    const user = await store!.createUser(newUser({ email: "\uFFFD@example.com" }));
    const session = newSession(user.userId);
    await store!.createSession(session);
    for (const bad of ["\u0000", `${user.userId}\u0000`, "\uD800", "\uDC00x", "a\u0007"]) {
      const label = JSON.stringify(bad);
      expect(await store!.getUser(bad), label).toBeUndefined();
      expect(await store!.getUserByEmail(`${bad}@example.com`), label).toBeUndefined();
      expect(await store!.getUserByOAuth(bad, bad), label).toBeUndefined();
      expect(await store!.getSession(bad), label).toBeUndefined();
      expect(await store!.findApiKey(bad), label).toBeUndefined();
      expect(await store!.listApiKeys(bad), label).toEqual([]);
      expect(await store!.revokeApiKey(bad, bad), label).toBe(false);
      expect(await store!.deleteSession(bad), label).toBe(false);
      expect(await store!.deleteUserSessions(bad), label).toBe(0);
      expect(await store!.deleteUser(bad), label).toBe(false);
      expect(await store!.loginLockedUntil(bad), label).toBeNull();
      await store!.touchApiKey(bad, new Date());
      await store!.clearLoginFailures(bad);
      await expectRuntimeError(store!.updateUser(bad, { disabled: true }), "USER_NOT_FOUND");
    }
    expect(await store!.getSession(session.sessionId)).toEqual(session);
    // Excepting a session id that cannot exist keeps none of the user's sessions.
    expect(await store!.deleteUserSessions(user.userId, { exceptSessionId: "\u0000" })).toBe(1);
    expect(await store!.getUser(user.userId)).toEqual(user);
  });

  test("a huge user agent is cut, other oversized session fields are refused", async ([store]) => {
    const user = await store!.createUser(newUser());
    const session = newSession(user.userId, { userAgent: "ü".repeat(100_000) });
    await store!.createSession(session);
    expect((await store!.getSession(session.sessionId))?.userAgent).toBe("ü".repeat(512));
    await expectRuntimeError(store!.createSession(newSession(user.userId, { ip: "9".repeat(65) })), "INVALID_ARGUMENT");
    await expectRuntimeError(
      store!.createSession(newSession(user.userId, { expiresAt: "+275760-09-13T00:00:00.000Z" })),
      "INVALID_ARGUMENT",
    );
    expect(await store!.getSession(randomHash())).toBeUndefined();
  });
}
