import { describe, expect, it } from "vitest";
import { mintSessionToken, sessionIdOf, verifySessionToken } from "./session-token.js";

const secret = "s".repeat(32);

describe("session tokens", () => {
  it("verifies its own tokens and yields the stored id, the token's SHA-256", () => {
    const minted = mintSessionToken(secret);
    expect(verifySessionToken(minted.cookieValue, secret)).toBe(minted.sessionId);
    expect(minted.sessionId).toBe(sessionIdOf(minted.cookieValue.split(".")[0] as string));
    expect(minted.cookieValue).not.toContain(minted.sessionId);
  });

  it("refuses a token signed with another secret, a flipped byte and malformed values", () => {
    const minted = mintSessionToken(secret);
    expect(verifySessionToken(minted.cookieValue, "t".repeat(32))).toBeUndefined();
    const [token, sig] = minted.cookieValue.split(".") as [string, string];
    const flipped = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}.${sig}`;
    expect(verifySessionToken(flipped, secret)).toBeUndefined();
    for (const bad of ["", token, `${token}.`, `${token}.${sig}.x`, `${token}.${sig}=`, "a.b"]) {
      expect(verifySessionToken(bad, secret)).toBeUndefined();
    }
  });
});
