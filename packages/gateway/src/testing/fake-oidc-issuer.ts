/**
 * A local OpenID Connect provider for tests (of the gateway, the server, or a
 * deployment's SSO settings): a node:http server with discovery,
 * JWKS, an `/authorize` that approves at once (redirecting back with a code and
 * the state), a `/token` endpoint that checks the client's credentials, the
 * redirect URI and the PKCE verifier and signs an RS256 id_token with `jose`,
 * and `/userinfo`.
 *
 * What the next login gets is configurable: the user's claims, and tampering
 * with the id_token (nonce, audience, issuer, expiry, a signature by a key that
 * is not in the JWKS) to check that the client refuses it.
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { SignJWT, exportJWK, generateKeyPair, type JWK } from "jose";

/** The person the provider vouches for. */
export interface FakeOidcUser {
  sub: string;
  /** Absent: no `email` claim at all. */
  email?: string;
  /** A string here (`"true"`) tests that only a JSON `true` counts as verified. */
  email_verified?: boolean | string;
  name?: string;
}

/** Ways to spoil the next id_token. */
export interface FakeOidcTampering {
  /** A nonce other than the one the client sent. */
  nonce?: string;
  /** An audience other than the client id. */
  aud?: string;
  /** An issuer other than this one. */
  iss?: string;
  /** `exp` an hour ago. */
  expired?: boolean;
  /** Signed by a key not in the JWKS (same `kid`). */
  foreignKey?: boolean;
  /** Signed with HS256 under the client secret (an algorithm a client must refuse for id_tokens here). */
  hmacWithClientSecret?: boolean;
  /** Claims only in `/userinfo`, none but `sub` in the id_token. */
  emailOnlyInUserinfo?: boolean;
}

/** What the token endpoint saw. */
export interface FakeTokenRequest {
  readonly authMethod: "client_secret_basic" | "client_secret_post" | "none";
  readonly params: Readonly<Record<string, string>>;
}

/** A running fake provider. */
export interface FakeOidcIssuer {
  /** Issuer URL (`http://127.0.0.1:<port>`). */
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Who logs in next (mutable). */
  user: FakeOidcUser;
  /** Tampering of the next id_tokens (mutable; `{}` for none). */
  tamper: FakeOidcTampering;
  /** When set, `/authorize` redirects back with `error=<value>` instead of a code. */
  denyWith: string | undefined;
  /** Token requests received, in order. */
  readonly tokenRequests: FakeTokenRequest[];
  /** Discovery requests received. */
  discoveryCount: number;
  close(): Promise<void>;
}

interface PendingCode {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly nonce: string | undefined;
  readonly challenge: string | undefined;
  readonly user: FakeOidcUser;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store", ...headers });
  res.end(JSON.stringify(body));
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

/**
 * Starts a fake provider on 127.0.0.1 (random port). Point a provider's `issuer`
 * at {@link FakeOidcIssuer.issuer} (plain http is accepted on loopback) and
 * follow the redirects by hand.
 *
 * @param options - the registered client (`clientId`, `clientSecret`) and the first user.
 * @example
 * ```ts
 * const idp = await startFakeOidcIssuer({ user: { sub: "u1", email: "ada@example.com", email_verified: true } });
 * idp.tamper = { nonce: "forged" }; // the next id_token carries another nonce
 * await idp.close();
 * ```
 */
export async function startFakeOidcIssuer(
  options: { clientId?: string; clientSecret?: string; user?: FakeOidcUser } = {},
): Promise<FakeOidcIssuer> {
  const clientId = options.clientId ?? "deerflow-test";
  const clientSecret = options.clientSecret ?? "s3cret-value";
  const kid = "test-key-1";
  const keys = await generateKeyPair("RS256", { extractable: true });
  const foreign = await generateKeyPair("RS256");
  const publicJwk: JWK = { ...(await exportJWK(keys.publicKey)), kid, alg: "RS256", use: "sig" };
  const codes = new Map<string, PendingCode>();
  const accessTokens = new Map<string, FakeOidcUser>();
  let issuer = "";

  const state: FakeOidcIssuer = {
    get issuer() {
      return issuer;
    },
    clientId,
    clientSecret,
    user: options.user ?? { sub: "user-1", email: "ada@example.com", email_verified: true, name: "Ada" },
    tamper: {},
    denyWith: undefined,
    tokenRequests: [],
    discoveryCount: 0,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  async function idToken(pending: PendingCode): Promise<string> {
    const t = state.tamper;
    const u = pending.user;
    const claims: Record<string, unknown> = { sub: u.sub };
    if (!t.emailOnlyInUserinfo) {
      if (u.email !== undefined) claims["email"] = u.email;
      if (u.email_verified !== undefined) claims["email_verified"] = u.email_verified;
      if (u.name !== undefined) claims["name"] = u.name;
    }
    const nonce = t.nonce ?? pending.nonce;
    if (nonce !== undefined) claims["nonce"] = nonce;
    const nowSeconds = Math.floor(Date.now() / 1000);
    const hmac = t.hmacWithClientSecret === true;
    return new SignJWT(claims)
      .setProtectedHeader(hmac ? { alg: "HS256", typ: "JWT" } : { alg: "RS256", kid, typ: "JWT" })
      .setIssuer(t.iss ?? issuer)
      .setAudience(t.aud ?? pending.clientId)
      .setIssuedAt(t.expired ? nowSeconds - 7200 : nowSeconds)
      .setExpirationTime(t.expired ? nowSeconds - 3600 : nowSeconds + 300)
      .sign(hmac ? new TextEncoder().encode(clientSecret) : t.foreignKey ? foreign.privateKey : keys.privateKey);
  }

  function clientOf(req: IncomingMessage, form: URLSearchParams): FakeTokenRequest["authMethod"] | undefined {
    const header = req.headers.authorization;
    if (header?.startsWith("Basic ")) {
      const [id, secret] = Buffer.from(header.slice(6), "base64").toString("utf8").split(":");
      const ok = decodeURIComponent(id ?? "") === clientId && decodeURIComponent(secret ?? "") === clientSecret;
      return ok ? "client_secret_basic" : undefined;
    }
    if (form.has("client_secret")) {
      return form.get("client_id") === clientId && form.get("client_secret") === clientSecret
        ? "client_secret_post"
        : undefined;
    }
    return form.get("client_id") === clientId ? "none" : undefined;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", issuer);
    switch (url.pathname) {
      case "/.well-known/openid-configuration":
        state.discoveryCount += 1;
        return send(res, 200, {
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          userinfo_endpoint: `${issuer}/userinfo`,
          jwks_uri: `${issuer}/jwks`,
          response_types_supported: ["code"],
          subject_types_supported: ["public"],
          id_token_signing_alg_values_supported: ["RS256"],
          code_challenge_methods_supported: ["S256"],
          token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic", "none"],
          scopes_supported: ["openid", "email", "profile"],
        });
      case "/jwks":
        return send(res, 200, { keys: [publicJwk] });
      case "/authorize": {
        const q = url.searchParams;
        const redirectUri = q.get("redirect_uri") ?? "";
        if (q.get("client_id") !== clientId || q.get("response_type") !== "code" || redirectUri === "") {
          return send(res, 400, { error: "invalid_request" });
        }
        const back = new URL(redirectUri);
        const stateParam = q.get("state");
        if (stateParam !== null) back.searchParams.set("state", stateParam);
        if (state.denyWith !== undefined) {
          back.searchParams.set("error", state.denyWith);
        } else {
          const code = randomBytes(16).toString("base64url");
          codes.set(code, {
            clientId,
            redirectUri,
            nonce: q.get("nonce") ?? undefined,
            challenge: q.get("code_challenge_method") === "S256" ? (q.get("code_challenge") ?? undefined) : undefined,
            user: { ...state.user },
          });
          back.searchParams.set("code", code);
        }
        res.writeHead(302, { location: back.href });
        return void res.end();
      }
      case "/token": {
        if (req.method !== "POST") return send(res, 405, { error: "invalid_request" });
        const form = await readForm(req);
        const authMethod = clientOf(req, form);
        state.tokenRequests.push({ authMethod: authMethod ?? "none", params: Object.fromEntries(form) });
        if (authMethod === undefined) return send(res, 401, { error: "invalid_client" });
        const code = form.get("code") ?? "";
        const pending = codes.get(code);
        codes.delete(code); // single use
        if (pending === undefined || form.get("grant_type") !== "authorization_code") {
          return send(res, 400, { error: "invalid_grant" });
        }
        if (form.get("redirect_uri") !== pending.redirectUri) return send(res, 400, { error: "invalid_grant" });
        if (pending.challenge !== undefined) {
          const verifier = form.get("code_verifier") ?? "";
          const challenge = createHash("sha256").update(verifier).digest("base64url");
          if (challenge !== pending.challenge) return send(res, 400, { error: "invalid_grant" });
        }
        const accessToken = randomBytes(16).toString("base64url");
        accessTokens.set(accessToken, pending.user);
        return send(res, 200, {
          access_token: accessToken,
          token_type: "Bearer",
          expires_in: 300,
          id_token: await idToken(pending),
        });
      }
      case "/userinfo": {
        const token = (req.headers.authorization ?? "").replace(/^Bearer /, "");
        const user = accessTokens.get(token);
        if (user === undefined) return send(res, 401, { error: "invalid_token" });
        return send(res, 200, user);
      }
      default:
        return send(res, 404, { error: "not_found" });
    }
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 500, { error: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}
