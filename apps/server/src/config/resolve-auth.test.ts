import { afterEach, describe, expect, it } from "vitest";
import { tempDirs, writeFiles } from "../../test/support/temp-dir.js";
import { describeConfig } from "./describe.js";
import { loadConfig, parseConfigText } from "./load-config.js";

const tmp = tempDirs();
afterEach(() => tmp.cleanup());

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

  it("is described for the startup log with why", async () => {
    const dir = await tmp.make();
    const off = describeConfig(await loadConfig({ cwd: dir, env: {} }));
    expect(off).toContain("auth: accounts off [default]");
    await writeFiles(dir, { "config.yaml": "auth:\n  enabled: true\n  local:\n    allow_registration: false\n" });
    expect(describeConfig(await loadConfig({ cwd: dir, env: {} }))).toContain(
      "auth: accounts on (sessions 7 day(s), registration closed, cookies Secure over HTTPS) [config]",
    );
    const forced = describeConfig(await loadConfig({ cwd: dir, env: { DEER_FLOW_AUTH_DISABLED: "1" } }));
    expect(forced).toContain("auth: accounts off [environment (DEER_FLOW_AUTH_DISABLED is set)]");
  });
});
