/** API keys: storage by hash, lists, revocation by the owner only, use stamps. */
import type { ConformanceExpect } from "@deerflow/kernel";
import { expectRuntimeError, ISO_UTC, newApiKey, newUser, randomHash, type AddTest } from "./context.js";

export function apiKeyTests(test: AddTest, expect: ConformanceExpect): void {
  test("a key is found by its hash and listed with its owner's keys, oldest first", async ([store]) => {
    const user = await store!.createUser(newUser());
    const other = await store!.createUser(newUser());
    const first = newApiKey(user.userId, { name: "first", createdAt: "2030-01-01T00:00:00.000Z" });
    const second = newApiKey(user.userId, {
      name: "second",
      createdAt: "2030-01-02T00:00:00.000Z",
      expiresAt: "2030-02-01T00:00:00.000Z",
    });
    const theirs = newApiKey(other.userId);
    for (const key of [second, first, theirs]) await store!.createApiKey(key);
    expect(await store!.findApiKey(first.keyHash)).toEqual(first);
    expect(await store!.findApiKey(randomHash())).toBeUndefined();
    expect(await store!.listApiKeys(user.userId)).toEqual([first, second]);
    expect(await store!.listApiKeys("nobody")).toEqual([]);
  });

  test("an expired key is returned as stored: callers decide", async ([store]) => {
    const user = await store!.createUser(newUser());
    const key = newApiKey(user.userId, { expiresAt: "2001-01-01T00:00:00.000Z" });
    await store!.createApiKey(key);
    expect(await store!.findApiKey(key.keyHash)).toEqual(key);
  });

  test("revokeApiKey revokes the owner's key once; another user's key is refused and untouched", async ([store]) => {
    const owner = await store!.createUser(newUser());
    const intruder = await store!.createUser(newUser());
    const key = newApiKey(owner.userId);
    await store!.createApiKey(key);
    expect(await store!.revokeApiKey(intruder.userId, key.keyId)).toBe(false);
    expect(await store!.findApiKey(key.keyHash)).toEqual(key);
    expect(await store!.revokeApiKey(owner.userId, key.keyId)).toBe(true);
    const revoked = await store!.findApiKey(key.keyHash);
    expect(revoked?.revokedAt).toMatch(ISO_UTC);
    expect(revoked).toEqual({ ...key, revokedAt: revoked?.revokedAt });
    expect(await store!.revokeApiKey(owner.userId, key.keyId)).toBe(false);
    expect((await store!.findApiKey(key.keyHash))?.revokedAt).toBe(revoked?.revokedAt);
    expect(await store!.revokeApiKey(owner.userId, "no-such-key")).toBe(false);
  });

  test("touchApiKey records the last use; an unknown key is ignored", async ([store]) => {
    const user = await store!.createUser(newUser());
    const key = newApiKey(user.userId);
    await store!.createApiKey(key);
    await store!.touchApiKey(key.keyId, new Date("2031-05-05T05:05:05.005Z"));
    expect((await store!.findApiKey(key.keyHash))?.lastUsedAt).toBe("2031-05-05T05:05:05.005Z");
    await store!.touchApiKey("no-such-key", new Date());
    await expectRuntimeError(store!.touchApiKey(key.keyId, new Date(Number.NaN)), "INVALID_ARGUMENT");
  });

  test("createApiKey refuses an unknown user, a taken id or hash, and malformed fields", async ([store]) => {
    const user = await store!.createUser(newUser());
    await expectRuntimeError(store!.createApiKey(newApiKey("ghost-user")), "USER_NOT_FOUND");
    const key = newApiKey(user.userId);
    await store!.createApiKey(key);
    await expectRuntimeError(store!.createApiKey(newApiKey(user.userId, { keyId: key.keyId })), "INVALID_ARGUMENT");
    await expectRuntimeError(store!.createApiKey(newApiKey(user.userId, { keyHash: key.keyHash })), "INVALID_ARGUMENT");
    for (const overrides of [
      { keyHash: "df_plaintext_key" },
      { keyId: "../key" },
      { name: "" },
      { name: "n".repeat(201) },
      { createdAt: "not a date" },
    ]) {
      await expectRuntimeError(store!.createApiKey(newApiKey(user.userId, overrides)), "INVALID_ARGUMENT");
    }
    expect(await store!.listApiKeys(user.userId)).toEqual([key]);
  });
}
