import { describe, expect, it } from "vitest";
import { parseConfigText } from "./load-config.js";

describe("auth: config", () => {
  it("is off by default with DeerFlow's defaults", () => {
    expect(parseConfigText("storage:\n  data_dir: ./d\n").config.auth).toEqual({
      enabled: false,
      tokenExpiryDays: 7,
      cookieSecure: false,
      allowedOrigins: [],
      allowRegistration: true,
    });
  });

  it("reads every key", () => {
    const text =
      "auth:\n  enabled: true\n  token_expiry_days: 30\n  cookie_secure: true\n  allowed_origins: [https://c.example.com]\n  local:\n    allow_registration: false\n";
    expect(parseConfigText(text).config.auth).toEqual({
      enabled: true,
      tokenExpiryDays: 30,
      cookieSecure: true,
      allowedOrigins: ["https://c.example.com"],
      allowRegistration: false,
    });
  });

  it("is forced off by DEER_FLOW_AUTH_DISABLED", () => {
    const parsed = parseConfigText("auth:\n  enabled: true\n", { env: { DEER_FLOW_AUTH_DISABLED: "1" } });
    expect(parsed.config.auth?.enabled).toBe(false);
  });

  it("names the key of a bad value", () => {
    expect(() => parseConfigText("auth:\n  token_expiry_days: 31\n")).toThrow(/auth\.token_expiry_days/);
    expect(() => parseConfigText("auth:\n  token_expiry_days: 0\n")).toThrow(/auth\.token_expiry_days/);
    expect(() => parseConfigText("auth:\n  local:\n    open: true\n")).toThrow(/auth\.local/);
    expect(() => parseConfigText('auth:\n  allowed_origins: ["*"]\n')).toThrow(/auth\.allowed_origins\[0\]/);
    expect(() => parseConfigText("auth:\n  allowed_origins: [https://x.example/path]\n")).toThrow(
      /auth\.allowed_origins\[0\]/,
    );
  });
});
