/**
 * OAuth tokens of `sse`/`http` MCP servers (DeerFlow's `oauth` block): fetched
 * from `token_url` with `client_credentials` or `refresh_token`, cached until
 * `refresh_skew_seconds` before expiry, and one refresh at a time per server
 * (concurrent callers share the pending request).
 */
import { McpError } from "./errors.js";
import type { McpOAuthSpec } from "./server-spec.js";

interface CachedToken {
  readonly header: string;
  /** Epoch ms after which the token is refreshed; `Infinity` without `expires_in`. */
  readonly refreshAt: number;
}

/** Supplies the `Authorization` header value of one server. */
export class OAuthTokenProvider {
  readonly #spec: McpOAuthSpec;
  readonly #fetch: typeof fetch;
  #cached: CachedToken | undefined;
  #pending: Promise<CachedToken> | undefined;

  /**
   * @param spec - the server's `oauth` block
   * @param fetchImpl - the HTTP client (default the global `fetch`)
   */
  constructor(spec: McpOAuthSpec, fetchImpl: typeof fetch = fetch) {
    this.#spec = spec;
    this.#fetch = fetchImpl;
  }

  /**
   * @returns `"<type> <token>"`, fetched again when the cached one is about to expire
   * @throws McpError `MCP_OAUTH_FAILED` when the endpoint refuses or answers without a token
   */
  async authorization(): Promise<string> {
    const cached = this.#cached;
    if (cached !== undefined && Date.now() < cached.refreshAt) return cached.header;
    this.#pending ??= this.#request().finally(() => {
      this.#pending = undefined;
    });
    this.#cached = await this.#pending;
    return this.#cached.header;
  }

  async #request(): Promise<CachedToken> {
    const s = this.#spec;
    const grant = s.grantType ?? "client_credentials";
    const body = new URLSearchParams({ grant_type: grant });
    if (s.clientId !== undefined) body.set("client_id", s.clientId);
    if (s.clientSecret !== undefined) body.set("client_secret", s.clientSecret);
    if (grant === "refresh_token" && s.refreshToken !== undefined) body.set("refresh_token", s.refreshToken);
    if (s.scope !== undefined) body.set("scope", s.scope);
    if (s.audience !== undefined) body.set("audience", s.audience);
    for (const [k, v] of Object.entries(s.extraTokenParams ?? {})) body.set(k, v);
    let answer: Response;
    try {
      answer = await this.#fetch(s.tokenUrl, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body,
        signal: AbortSignal.timeout(30_000),
      });
    } catch (err) {
      throw new McpError("MCP_OAUTH_FAILED", `OAuth token request to ${s.tokenUrl} failed: ${(err as Error).message}`, {
        cause: err,
      });
    }
    if (!answer.ok)
      throw new McpError("MCP_OAUTH_FAILED", `OAuth token endpoint ${s.tokenUrl} answered HTTP ${answer.status}`);
    const data = (await answer.json().catch(() => ({}))) as Record<string, unknown>;
    const token = data[s.tokenField ?? "access_token"];
    if (typeof token !== "string" || token === "")
      throw new McpError(
        "MCP_OAUTH_FAILED",
        `OAuth token endpoint ${s.tokenUrl} answered without '${s.tokenField ?? "access_token"}'`,
      );
    const type = data[s.tokenTypeField ?? "token_type"];
    const expiresIn = Number(data[s.expiresInField ?? "expires_in"]);
    const skewMs = (s.refreshSkewSeconds ?? 60) * 1000;
    return {
      header: `${typeof type === "string" && type !== "" ? type : (s.defaultTokenType ?? "Bearer")} ${token}`,
      refreshAt: Number.isFinite(expiresIn) && expiresIn > 0 ? Date.now() + expiresIn * 1000 - skewMs : Infinity,
    };
  }
}
