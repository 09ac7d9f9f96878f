/** Users: creation, the first admin, lookups, lists, counts, updates and deletion. */
import type { ConformanceExpect } from "@deerflow/kernel";
import { expectRuntimeError, ISO_UTC, newApiKey, newSession, newUser, type AddTest } from "./context.js";

export function userTests(test: AddTest, expect: ConformanceExpect): void {
  test("createUser stores a normalised record that every lookup returns", async ([store]) => {
    const created = await store!.createUser(newUser({ email: "Ada.Lovelace@Example.COM", needsSetup: true }));
    expect(created.userId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(created.createdAt).toMatch(ISO_UTC);
    expect(created).toEqual({
      userId: created.userId,
      email: "ada.lovelace@example.com",
      passwordHash: newUser().passwordHash,
      systemRole: "user",
      needsSetup: true,
      tokenVersion: 0,
      oauthProvider: null,
      oauthSubject: null,
      disabled: false,
      createdAt: created.createdAt,
      updatedAt: created.createdAt,
    });
    expect(await store!.getUser(created.userId)).toEqual(created);
    expect(await store!.getUserByEmail("ADA.LOVELACE@example.com")).toEqual(created);
    expect(await store!.getUserByEmail("ada.lovelace@example.org")).toBeUndefined();
    expect(await store!.getUser("no-such-user")).toBeUndefined();
  });

  test("a given userId is kept; ids that are not safe folder names, or taken, are refused", async ([store]) => {
    const user = await store!.createUser(newUser({ userId: "alice_01" }));
    expect(user.userId).toBe("alice_01");
    for (const userId of ["", "../etc", "a/b", ".hidden", "-flag", "a b", "x".repeat(129), "nul\u0000"]) {
      await expectRuntimeError(store!.createUser(newUser({ userId })), "INVALID_ARGUMENT");
    }
    await expectRuntimeError(store!.createUser(newUser({ userId: "alice_01" })), "INVALID_ARGUMENT");
    expect(await store!.countUsers()).toBe(1);
  });

  test("an email is unique whatever its case: a duplicate fails with EMAIL_EXISTS", async ([store]) => {
    await store!.createUser(newUser({ email: "grace@example.com" }));
    await expectRuntimeError(store!.createUser(newUser({ email: "grace@example.com" })), "EMAIL_EXISTS");
    await expectRuntimeError(store!.createUser(newUser({ email: "GRACE@Example.Com" })), "EMAIL_EXISTS");
    expect(await store!.countUsers()).toBe(1);
  });

  test("OIDC users: found by provider and subject, unique per provider, both or neither given", async ([store]) => {
    const oidc = await store!.createUser(newUser({ passwordHash: null, oauthProvider: "corp", oauthSubject: "sub-1" }));
    expect(oidc.passwordHash).toBeNull();
    expect(await store!.getUserByOAuth("corp", "sub-1")).toEqual(oidc);
    expect(await store!.getUserByOAuth("corp", "sub-2")).toBeUndefined();
    expect(await store!.getUserByOAuth("other", "sub-1")).toBeUndefined();
    const err = await expectRuntimeError(
      store!.createUser(newUser({ oauthProvider: "corp", oauthSubject: "sub-1" })),
      "OAUTH_IDENTITY_EXISTS",
    );
    expect(err.details).toEqual({ provider: "corp" });
    await store!.createUser(newUser({ oauthProvider: "other", oauthSubject: "sub-1" }));
    await expectRuntimeError(store!.createUser(newUser({ oauthProvider: "corp" })), "INVALID_ARGUMENT");
    await expectRuntimeError(store!.createUser(newUser({ oauthSubject: "s" })), "INVALID_ARGUMENT");
    expect(await store!.countUsers()).toBe(2);
  });

  test("createFirstAdmin succeeds on an empty store only: then ALREADY_INITIALIZED", async ([store]) => {
    const admin = await store!.createFirstAdmin(newUser({ systemRole: "admin", needsSetup: true }));
    expect([admin.systemRole, admin.needsSetup]).toEqual(["admin", true]);
    await expectRuntimeError(store!.createFirstAdmin(newUser({ systemRole: "admin" })), "ALREADY_INITIALIZED");
    expect(await store!.countUsers()).toBe(1);
  });

  test("createFirstAdmin refuses when any user exists, even a plain one", async ([store]) => {
    await store!.createUser(newUser());
    await expectRuntimeError(store!.createFirstAdmin(newUser({ systemRole: "admin" })), "ALREADY_INITIALIZED");
    expect(await store!.countUsers({ systemRole: "admin" })).toBe(0);
  });

  test("listUsers is in creation order with limit and offset; countUsers counts by role", async ([store]) => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await store!.createUser(newUser({ systemRole: i === 2 ? "admin" : "user" }))).userId);
    }
    expect((await store!.listUsers()).map((u) => u.userId)).toEqual(ids);
    expect((await store!.listUsers({ limit: 2, offset: 1 })).map((u) => u.userId)).toEqual(ids.slice(1, 3));
    expect(await store!.listUsers({ offset: 5 })).toEqual([]);
    expect([await store!.countUsers(), await store!.countUsers({ systemRole: "admin" })]).toEqual([5, 1]);
    expect(await store!.countUsers({ systemRole: "user" })).toBe(4);
    for (const query of [{ limit: 0 }, { limit: 1001 }, { limit: 1.5 }, { offset: -1 }]) {
      await expectRuntimeError(store!.listUsers(query), "INVALID_ARGUMENT");
    }
    await expectRuntimeError(store!.countUsers({ systemRole: "root" as "admin" }), "INVALID_ARGUMENT");
  });

  test("updateUser changes the given fields only, bumps the token version, normalises the email", async ([store]) => {
    const user = await store!.createUser(newUser({ needsSetup: true }));
    const updated = await store!.updateUser(user.userId, {
      email: "New.Address@Example.com",
      passwordHash: "new-hash",
      needsSetup: false,
      bumpTokenVersion: true,
    });
    expect(updated).toEqual({
      ...user,
      email: "new.address@example.com",
      passwordHash: "new-hash",
      needsSetup: false,
      tokenVersion: 1,
      updatedAt: updated.updatedAt,
    });
    expect(updated.updatedAt).toMatch(ISO_UTC);
    expect(updated.updatedAt >= user.updatedAt).toBe(true);
    expect(await store!.getUser(user.userId)).toEqual(updated);
    expect(await store!.getUserByEmail(user.email)).toBeUndefined();
    const roles = await store!.updateUser(user.userId, { systemRole: "admin", disabled: true, bumpTokenVersion: true });
    expect([roles.systemRole, roles.disabled, roles.tokenVersion, roles.email]).toEqual([
      "admin",
      true,
      2,
      "new.address@example.com",
    ]);
    const same = await store!.updateUser(user.userId, {});
    expect({ ...same, updatedAt: roles.updatedAt }).toEqual(roles);
  });

  test("updateUser: EMAIL_EXISTS for another user's email, its own in another case is fine", async ([store]) => {
    const a = await store!.createUser(newUser({ email: "a@example.com" }));
    await store!.createUser(newUser({ email: "b@example.com" }));
    await expectRuntimeError(store!.updateUser(a.userId, { email: "B@example.com" }), "EMAIL_EXISTS");
    expect((await store!.updateUser(a.userId, { email: "A@EXAMPLE.COM" })).email).toBe("a@example.com");
    await expectRuntimeError(store!.updateUser("missing-user", { disabled: true }), "USER_NOT_FOUND");
    await expectRuntimeError(store!.updateUser(a.userId, { systemRole: "owner" as "admin" }), "INVALID_ARGUMENT");
  });

  test("deleteUser removes the user with their sessions and API keys, and frees the email", async ([store]) => {
    const doomed = await store!.createUser(newUser({ email: "doomed@example.com" }));
    const kept = await store!.createUser(newUser());
    const session = newSession(doomed.userId);
    const key = newApiKey(doomed.userId);
    const keptSession = newSession(kept.userId);
    const keptKey = newApiKey(kept.userId);
    for (const s of [session, keptSession]) await store!.createSession(s);
    for (const k of [key, keptKey]) await store!.createApiKey(k);
    expect(await store!.deleteUser(doomed.userId)).toBe(true);
    expect(await store!.deleteUser(doomed.userId)).toBe(false);
    expect(await store!.getUser(doomed.userId)).toBeUndefined();
    expect(await store!.getSession(session.sessionId)).toBeUndefined();
    expect(await store!.findApiKey(key.keyHash)).toBeUndefined();
    expect(await store!.listApiKeys(doomed.userId)).toEqual([]);
    expect(await store!.getSession(keptSession.sessionId)).toEqual(keptSession);
    expect(await store!.findApiKey(keptKey.keyHash)).toEqual(keptKey);
    const again = await store!.createUser(newUser({ email: "doomed@example.com" }));
    expect(again.userId).not.toBe(doomed.userId);
    expect(await store!.deleteUser("never-existed")).toBe(false);
  });

  test("records go in and out as copies", async ([store]) => {
    const input = newUser();
    const user = await store!.createUser(input);
    user.email = "mutated@example.com";
    user.tokenVersion = 99;
    input.email = "other@example.com";
    const stored = await store!.getUser(user.userId);
    expect([stored?.email.startsWith("user-"), stored?.tokenVersion]).toEqual([true, 0]);
    (await store!.listUsers())[0]!.disabled = true;
    expect((await store!.getUser(user.userId))?.disabled).toBe(false);
  });
}
