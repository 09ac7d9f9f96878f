import { describe, expect, it } from "vitest";
import {
  OIDC_STATE_MAX_AGE_SECONDS,
  deriveOidcStateKey,
  signOidcState,
  verifyOidcState,
  type OidcLoginState,
} from "./oidc-state-cookie.js";

const key = deriveOidcStateKey("server-secret");
const t0 = 1_800_000_000_000;
const login: OidcLoginState = {
  provider: "corp",
  state: "st",
  nonce: "nn",
  codeVerifier: "vv",
  nextPath: "/chat",
  rememberMe: true,
  issuedAt: t0 / 1000,
};

describe("OIDC state cookie", () => {
  it("round-trips within its lifetime", () => {
    const value = signOidcState(key, login);
    expect(verifyOidcState(key, value, "corp", t0 + 1000)).toEqual(login);
    expect(verifyOidcState(key, value, "corp", t0 + OIDC_STATE_MAX_AGE_SECONDS * 1000)).toEqual(login);
  });

  it("refuses an expired attempt, whatever the cookie's Max-Age said", () => {
    const value = signOidcState(key, login);
    expect(verifyOidcState(key, value, "corp", t0 + (OIDC_STATE_MAX_AGE_SECONDS + 1) * 1000)).toBeUndefined();
  });

  it("refuses another provider's attempt", () => {
    expect(verifyOidcState(key, signOidcState(key, login), "other", t0)).toBeUndefined();
  });

  it("refuses a tampered payload and a value signed with another key", () => {
    const value = signOidcState(key, login);
    const [, sig] = value.split(".");
    const forged = Buffer.from(JSON.stringify({ ...login, nextPath: "//evil" })).toString("base64url");
    expect(verifyOidcState(key, `${forged}.${sig}`, "corp", t0)).toBeUndefined();
    const other = signOidcState(deriveOidcStateKey("another-secret"), login);
    expect(verifyOidcState(key, other, "corp", t0)).toBeUndefined();
  });

  it("is keyed apart from the raw secret (a value signed with the secret itself does not pass)", () => {
    const raw = signOidcState(new TextEncoder().encode("server-secret"), login);
    expect(verifyOidcState(key, raw, "corp", t0)).toBeUndefined();
  });

  it.each([undefined, "", "nodot", ".sig", "a.b.c", `${"x".repeat(9000)}.y`])("refuses malformed %j", (value) => {
    expect(verifyOidcState(key, value, "corp", t0)).toBeUndefined();
  });

  it("refuses a signed payload of the wrong shape", () => {
    const { nonce: _omit, ...partial } = login;
    expect(verifyOidcState(key, signOidcState(key, partial as OidcLoginState), "corp", t0)).toBeUndefined();
  });
});
