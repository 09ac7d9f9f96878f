import { silentLogger } from "@deerflow/kernel";
import * as client from "openid-client";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeOidcIssuer, type FakeOidcIssuer } from "../../testing/fake-oidc-issuer.js";
import { GatewayError } from "../../errors.js";
import { OidcLoginError } from "./oidc-login-error.js";
import type { OidcProviderOptions } from "./oidc-options.js";
import { OidcProviderClient } from "./oidc-provider-client.js";

const REDIRECT = "http://127.0.0.1:9/api/v1/auth/callback/corp";
let idp: FakeOidcIssuer;

beforeAll(async () => {
  idp = await startFakeOidcIssuer();
});
afterAll(() => idp.close());
beforeEach(() => {
  idp.tamper = {};
  idp.user = { sub: "user-1", email: "ada@example.com", email_verified: true, name: "Ada" };
});

function options(extra: Partial<OidcProviderOptions> = {}): OidcProviderOptions {
  return { displayName: "Corp", issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, ...extra };
}

function checks() {
  return { state: client.randomState(), nonce: client.randomNonce(), codeVerifier: client.randomPKCECodeVerifier() };
}

/** Runs the browser's part: follows the authorization URL to the provider and returns the callback query. */
async function authorize(url: URL): Promise<URLSearchParams> {
  const res = await fetch(url, { redirect: "manual" });
  expect(res.status).toBe(302);
  return new URL(res.headers.get("location") ?? "").searchParams;
}

async function login(provider: OidcProviderClient, c = checks()) {
  const url = await provider.authorizationUrl(REDIRECT, c);
  return provider.authenticate(REDIRECT, await authorize(url), c);
}

async function failureCode(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(OidcLoginError.isInstance(error) || GatewayError.isInstance(error)).toBe(true);
  return (error as OidcLoginError).code;
}

describe("OidcProviderClient against a local provider", () => {
  it("builds a code-flow URL with PKCE S256, state, nonce and the default scopes", async () => {
    const c = checks();
    const url = await new OidcProviderClient("corp", options(), 5, silentLogger).authorizationUrl(REDIRECT, c);
    expect(url.origin + url.pathname).toBe(`${idp.issuer}/authorize`);
    const q = url.searchParams;
    expect(Object.fromEntries(q)).toMatchObject({
      response_type: "code",
      client_id: idp.clientId,
      redirect_uri: REDIRECT,
      scope: "openid email profile",
      state: c.state,
      nonce: c.nonce,
      code_challenge_method: "S256",
      code_challenge: await client.calculatePKCECodeChallenge(c.codeVerifier),
    });
  });

  it("logs in with client_secret_post (default) and client_secret_basic", async () => {
    const post = await login(new OidcProviderClient("corp", options(), 5, silentLogger));
    expect(post).toEqual({
      provider: "corp",
      subject: "user-1",
      email: "ada@example.com",
      emailVerified: true,
      name: "Ada",
    });
    expect(idp.tokenRequests.at(-1)?.authMethod).toBe("client_secret_post");
    const basic = new OidcProviderClient(
      "corp",
      options({ tokenEndpointAuthMethod: "client_secret_basic" }),
      5,
      silentLogger,
    );
    expect((await login(basic)).subject).toBe("user-1");
    expect(idp.tokenRequests.at(-1)?.authMethod).toBe("client_secret_basic");
    expect(idp.tokenRequests.at(-1)?.params["code_verifier"]).toMatch(/^[\w-]{43,}$/);
  });

  it("takes the email from userinfo when the id_token has none", async () => {
    idp.tamper = { emailOnlyInUserinfo: true };
    const identity = await login(new OidcProviderClient("corp", options(), 5, silentLogger));
    expect(identity).toMatchObject({ subject: "user-1", email: "ada@example.com", emailVerified: true });
  });

  it("counts only a JSON true as a verified email", async () => {
    idp.user = { sub: "user-2", email: "bob@example.com", email_verified: "true" };
    const identity = await login(new OidcProviderClient("corp", options(), 5, silentLogger));
    expect(identity.emailVerified).toBe(false);
  });

  it.each([
    ["nonce mismatch", { nonce: "another-nonce" }],
    ["wrong audience", { aud: "someone-else" }],
    ["wrong issuer", { iss: "http://127.0.0.1:1" }],
    ["expired id_token", { expired: true }],
    ["signature by a key not in the JWKS", { foreignKey: true }],
    ["an HMAC signature under the client secret", { hmacWithClientSecret: true }],
  ])("refuses an id_token with %s", async (_label, tamper) => {
    idp.tamper = tamper;
    expect(await failureCode(login(new OidcProviderClient("corp", options(), 5, silentLogger)))).toBe(
      "AUTHENTICATION_FAILED",
    );
  });

  it("refuses a callback whose state is not the attempt's, and a wrong PKCE verifier", async () => {
    const provider = new OidcProviderClient("corp", options(), 5, silentLogger);
    const c = checks();
    const query = await authorize(await provider.authorizationUrl(REDIRECT, c));
    expect(await failureCode(provider.authenticate(REDIRECT, query, { ...c, state: "other" }))).toBe(
      "AUTHENTICATION_FAILED",
    );
    const c2 = checks();
    const query2 = await authorize(await provider.authorizationUrl(REDIRECT, c2));
    expect(
      await failureCode(
        provider.authenticate(REDIRECT, query2, { ...c2, codeVerifier: client.randomPKCECodeVerifier() }),
      ),
    ).toBe("AUTHENTICATION_FAILED");
  });

  it("refuses a wrong client secret at the token endpoint", async () => {
    const wrong = new OidcProviderClient("corp", options({ clientSecret: "nope" }), 5, silentLogger);
    expect(await failureCode(login(wrong))).toBe("AUTHENTICATION_FAILED");
  });

  it("answers BAD_GATEWAY when discovery fails, and retries at the next login", async () => {
    const down = new OidcProviderClient("corp", options({ issuer: "http://127.0.0.1:1" }), 2, silentLogger);
    expect(await failureCode(down.authorizationUrl(REDIRECT, checks()))).toBe("BAD_GATEWAY");
    const provider = new OidcProviderClient("corp", options(), 5, silentLogger);
    const before = idp.discoveryCount;
    await provider.authorizationUrl(REDIRECT, checks());
    await provider.authorizationUrl(REDIRECT, checks());
    expect(idp.discoveryCount).toBe(before + 1);
  });

  it("refuses a discovery document naming another issuer", async () => {
    // The fake issuer's document says http://127.0.0.1:<port>; configured as localhost it does not match.
    const renamed = idp.issuer.replace("127.0.0.1", "localhost");
    const provider = new OidcProviderClient("corp", options({ issuer: renamed }), 5, silentLogger);
    expect(await failureCode(provider.authorizationUrl(REDIRECT, checks()))).toBe("BAD_GATEWAY");
  });

  it.each([
    ["a plain-http issuer off loopback", { issuer: "http://idp.example" }],
    ["an issuer that is not a URL", { issuer: "idp" }],
    ["no secret with a secret-based method", { clientSecret: undefined }],
    ["scopes without openid", { scopes: ["email"] }],
  ])("refuses %s at construction", (_label, extra) => {
    expect(
      () => new OidcProviderClient("corp", options(extra as Partial<OidcProviderOptions>), 5, silentLogger),
    ).toThrow(expect.objectContaining({ code: "CONFIG_INVALID" }));
  });
});
