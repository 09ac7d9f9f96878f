import { GatewayError } from "@deerflow/gateway";
import { describe, expect, it } from "vitest";
import { isSecretKey, maskServer, restoreServer } from "./mask-secrets.js";

describe("MCP secret masking (DeerFlow §2.4)", () => {
  const stored = {
    command: "npx",
    env: { API_KEY: "k1" },
    headers: { Authorization: "Bearer t" },
    oauth: { token_url: "https://auth.example/token", client_id: "id", client_secret: "cs", refresh_token: "rt" },
    apiToken: "tok",
    region: "eu",
    routing: { mode: "prefer" },
  };

  it("masks env and header values, OAuth secrets and secret-named extra keys only", () => {
    expect(maskServer(stored)).toEqual({
      command: "npx",
      env: { API_KEY: "***" },
      headers: { Authorization: "***" },
      oauth: { token_url: "https://auth.example/token", client_id: "id", client_secret: null, refresh_token: null },
      apiToken: "***",
      region: "eu",
      routing: { mode: "prefer" },
    });
  });

  it("names secrets at _ boundaries with camelCase split", () => {
    for (const k of ["api_key", "apiKey", "client-secret", "x_token", "PASSWORD", "db_credentials", "bearer"])
      expect(isSecretKey(k)).toBe(true);
    for (const k of ["tokenizer", "secretary", "region", "author"]) expect(isSecretKey(k)).toBe(false);
  });

  it("round-trips: *** and null restore the stored values, '' clears an OAuth secret, routing is kept", () => {
    const back = restoreServer(
      { ...maskServer(stored), oauth: { ...(maskServer(stored)["oauth"] as object), refresh_token: "" } },
      stored,
    );
    expect(back).toEqual({
      ...stored,
      oauth: { token_url: "https://auth.example/token", client_id: "id", client_secret: "cs" },
    });
    const { routing: _r, ...withoutRouting } = maskServer(stored);
    expect(restoreServer(withoutRouting, stored)["routing"]).toEqual({ mode: "prefer" });
  });

  it("refuses *** for a key that is not stored, with DeerFlow's texts", () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ env: { NEW: "***" } }, "Cannot set env key 'NEW' to masked value '***'; provide a real value."],
      [{ headers: { "X-Key": "***" } }, "Cannot set header 'X-Key' to masked value '***'; provide a real value."],
      [{ api_key: "***" }, "Cannot set extra config key 'api_key' to masked value '***'; provide a real value."],
    ];
    for (const [entry, text] of cases) {
      let caught: unknown;
      try {
        restoreServer(entry, undefined);
      } catch (err) {
        caught = err;
      }
      expect(GatewayError.isInstance(caught)).toBe(true);
      expect((caught as GatewayError).code).toBe("BAD_REQUEST");
      expect((caught as Error).message).toBe(text);
    }
  });
});
