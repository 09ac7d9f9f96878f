import bcrypt from "bcryptjs";
import { describe, expect, it } from "vitest";
import { PASSWORD_HASH_V1, PASSWORD_HASH_V2, PasswordHasher } from "./password-hasher.js";
import { COMMON_PASSWORD_MESSAGE, passwordProblem } from "./password-policy.js";

const hasher = new PasswordHasher({ cost: 4 });

describe("PasswordHasher", () => {
  it("writes $dfv2$ hashes that verify and need no rehash", async () => {
    const hash = await hasher.hash("correct horse battery");
    expect(hash.startsWith(PASSWORD_HASH_V2)).toBe(true);
    expect(await hasher.verify("correct horse battery", hash)).toEqual({ ok: true, needsRehash: false });
    expect(await hasher.verify("correct horse batterY", hash)).toEqual({ ok: false, needsRehash: false });
  });

  it("tells apart long passwords that share their first 72 bytes (plain bcrypt would not)", async () => {
    const base = "x".repeat(80);
    const hash = await hasher.hash(`${base}a`);
    expect((await hasher.verify(`${base}b`, hash)).ok).toBe(false);
    const legacy = await bcrypt.hash(`${base}a`, 4);
    expect((await hasher.verify(`${base}b`, legacy)).ok).toBe(true);
  });

  it("verifies DeerFlow's $dfv1$ and bare bcrypt hashes and flags them for rehash", async () => {
    const bare = await bcrypt.hash("legacy-password", 4);
    expect(await hasher.verify("legacy-password", bare)).toEqual({ ok: true, needsRehash: true });
    expect(await hasher.verify("legacy-password", PASSWORD_HASH_V1 + bare)).toEqual({ ok: true, needsRehash: true });
    expect(await hasher.verify("other-password", PASSWORD_HASH_V1 + bare)).toEqual({ ok: false, needsRehash: false });
  });

  it.each([
    ["empty", ""],
    ["garbage", "not a hash"],
    ["truncated v2", `${PASSWORD_HASH_V2}$2b$04$abc`],
    ["v1 junk", "$dfv1$zz"],
  ])("fails closed on a malformed hash (%s)", async (_l, stored) => {
    expect(await hasher.verify("whatever1", stored)).toEqual({ ok: false, needsRehash: false });
  });

  it("spends a real verification on the dummy hash", async () => {
    const slow = new PasswordHasher({ cost: 8 });
    await slow.verifyDummy("warm-up-pass");
    const t0 = performance.now();
    await slow.verifyDummy("another-pass");
    expect(performance.now() - t0).toBeGreaterThan(2);
  });

  it("refuses a cost outside bcrypt's range", () => {
    expect(() => new PasswordHasher({ cost: 3 })).toThrow(RangeError);
  });
});

describe("passwordProblem", () => {
  it.each([
    ["short", "Abc123!", "at least 8"],
    ["common", "Password123", COMMON_PASSWORD_MESSAGE],
    ["common in another case", "QWERTY123", COMMON_PASSWORD_MESSAGE],
  ])("refuses a %s password", (_l, pw, text) => {
    expect(passwordProblem(pw)).toContain(text);
  });

  it("counts characters, not UTF-16 units, and accepts a decent password", () => {
    expect(passwordProblem("🦌🦌🦌🦌🦌🦌🦌")).toContain("at least 8");
    expect(passwordProblem("deer-flow-rocks-42")).toBeUndefined();
  });
});
