import { describe, expect, it } from "vitest";
import { createStderrLogger } from "./stderr-logger.js";
import { DEFAULT_SERVER_LIMITS, isLoopback, parseLimits, parseServerConfig, UsageError } from "./server-config.js";

const KEY_A = "key-a-0123456789abcdef";
const KEY_B = "key-b-0123456789abcdef";
const ADMIN_KEY = "admin-0123456789abcdef";

describe("parseServerConfig", () => {
  it("applies defaults", () => {
    expect(parseServerConfig([], {}, "/srv")).toEqual({
      host: "127.0.0.1",
      port: 8080,
      baseDir: "/srv/.deer-flow",
      skillsDir: undefined,
      clients: [],
      adminKey: undefined,
      allowHostBash: false,
      network: false,
      limits: DEFAULT_SERVER_LIMITS,
      publicUrl: undefined,
      bodyLimit: undefined,
      logLevel: "info",
    });
  });

  it("reads flags, which win over the environment", () => {
    const config = parseServerConfig(
      [
        "--port",
        "0",
        "--host=::1",
        "--base-dir",
        "data",
        "--skills-dir",
        "/skills",
        "--allow-host-bash",
        "--body-limit",
        "2048",
      ],
      { SANDBOX_PORT: "9", SANDBOX_HOST: "10.0.0.1", SANDBOX_API_KEY: "k" },
      "/srv",
    );
    expect(config).toMatchObject({
      port: 0,
      host: "::1",
      baseDir: "/srv/data",
      skillsDir: "/skills",
      allowHostBash: true,
      clients: [{ id: "default", key: "k" }],
      bodyLimit: 2048,
    });
  });

  it("reads the environment", () => {
    const config = parseServerConfig(
      [],
      { SANDBOX_PORT: "9000", SANDBOX_BASE_DIR: "/data", SANDBOX_ALLOW_HOST_BASH: "true", SANDBOX_LOG_LEVEL: "warn" },
      "/srv",
    );
    expect(config).toMatchObject({ port: 9000, baseDir: "/data", allowHostBash: true, logLevel: "warn" });
  });

  it("refuses a non-loopback bind without an API key", () => {
    expect(() => parseServerConfig(["--host", "0.0.0.0"], {}, "/")).toThrow(UsageError);
    expect(parseServerConfig(["--host", "0.0.0.0", "--allow-no-auth"], {}, "/")).toMatchObject({ host: "0.0.0.0" });
    expect(parseServerConfig(["--host", "0.0.0.0"], { SANDBOX_API_KEY: "k" }, "/")).toMatchObject({
      clients: [{ id: "default", key: "k" }],
    });
    expect(parseServerConfig(["--host", "0.0.0.0"], { SANDBOX_CLIENT_KEYS: `{"a":"${KEY_A}"}` }, "/")).toMatchObject({
      clients: [{ id: "a" }],
    });
    expect(parseServerConfig(["--host", "0.0.0.0"], { SANDBOX_ADMIN_KEY: ADMIN_KEY }, "/")).toMatchObject({
      clients: [],
      adminKey: ADMIN_KEY,
    });
  });

  it.each([
    [["--port", "70000"]],
    [["--port", "-1"]],
    [["--port", "8e3"]],
    [["--nope"]],
    [["--log-level", "loud"]],
    [["stray"]],
  ])("rejects %j", (argv) => {
    expect(() => parseServerConfig(argv, {}, "/")).toThrow(UsageError);
  });

  it("returns help for --help", () => {
    expect(parseServerConfig(["-h"], {}, "/")).toBe("help");
  });
});

describe("parseServerConfig keys", () => {
  it("reads several client keys and the admin key", () => {
    const config = parseServerConfig(
      [],
      {
        SANDBOX_API_KEY: "shared",
        SANDBOX_CLIENT_KEYS: `{"agents-eu":"${KEY_A}","agents_us":"${KEY_B}"}`,
        SANDBOX_ADMIN_KEY: ADMIN_KEY,
      },
      "/",
    );
    expect(config).toMatchObject({
      clients: [
        { id: "default", key: "shared" },
        { id: "agents-eu", key: KEY_A },
        { id: "agents_us", key: KEY_B },
      ],
      adminKey: ADMIN_KEY,
    });
  });

  it("treats empty variables as unset", () => {
    expect(
      parseServerConfig([], { SANDBOX_API_KEY: "", SANDBOX_CLIENT_KEYS: "", SANDBOX_ADMIN_KEY: "" }, "/"),
    ).toMatchObject({ clients: [], adminKey: undefined });
  });

  it.each([
    ["not JSON", { SANDBOX_CLIENT_KEYS: `{"a":"${KEY_A}"` }, /SANDBOX_CLIENT_KEYS is not a JSON object/],
    ["an array", { SANDBOX_CLIENT_KEYS: `["${KEY_A}"]` }, /SANDBOX_CLIENT_KEYS: must be object/],
    ["an empty object", { SANDBOX_CLIENT_KEYS: "{}" }, /SANDBOX_CLIENT_KEYS: must NOT have fewer than 1 properties/],
    [
      "a client id with a dot",
      { SANDBOX_CLIENT_KEYS: `{"a.b":"${KEY_A}"}` },
      /SANDBOX_CLIENT_KEYS: "a\.b" is not a valid client id/,
    ],
    [
      "the reserved id admin",
      { SANDBOX_CLIENT_KEYS: `{"admin":"${KEY_A}"}` },
      /SANDBOX_CLIENT_KEYS: "admin" is not a valid client id/,
    ],
    [
      "a short key",
      { SANDBOX_CLIENT_KEYS: '{"a":"short"}' },
      /SANDBOX_CLIENT_KEYS: a: must NOT have fewer than 16 characters/,
    ],
    [
      "a key that is not a string",
      { SANDBOX_CLIENT_KEYS: '{"a":12345678901234567890}' },
      /SANDBOX_CLIENT_KEYS: a: must be string/,
    ],
    ["a short admin key", { SANDBOX_ADMIN_KEY: "short" }, /SANDBOX_ADMIN_KEY: must NOT have fewer than 16 characters/],
    [
      "default twice",
      { SANDBOX_API_KEY: "k", SANDBOX_CLIENT_KEYS: `{"default":"${KEY_A}"}` },
      /"default" is already SANDBOX_API_KEY's client/,
    ],
    ["two clients sharing a key", { SANDBOX_CLIENT_KEYS: `{"a":"${KEY_A}","b":"${KEY_A}"}` }, /share a key/],
    [
      "a client sharing the admin key",
      { SANDBOX_CLIENT_KEYS: `{"a":"${KEY_A}"}`, SANDBOX_ADMIN_KEY: KEY_A },
      /share a key/,
    ],
  ])("rejects %s naming the variable, never the key", (_label, env, message) => {
    let error: unknown;
    try {
      parseServerConfig([], env, "/");
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain(KEY_A);
  });
});

describe("parseLimits", () => {
  it("overrides defaults and removes a limit set to 0", () => {
    const limits = parseLimits('{"fileSizeBytes": 1048576, "cpuSeconds": 0}');
    expect(limits).toEqual({ ...DEFAULT_SERVER_LIMITS, fileSizeBytes: 1048576, cpuSeconds: undefined });
    expect("cpuSeconds" in limits).toBe(false);
  });

  it.each(["nope", "[]", '{"disk": 1}', '{"processes": -1}', '{"processes": 1.5}', '{"processes": "9"}'])(
    "rejects %s",
    (text) => {
      expect(() => parseLimits(text)).toThrow(UsageError);
    },
  );
});

describe("isLoopback", () => {
  it.each([
    ["127.0.0.1", true],
    ["::1", true],
    ["localhost", true],
    ["0.0.0.0", false],
    ["10.1.2.3", false],
  ])("%s → %s", (host, expected) => {
    expect(isLoopback(host)).toBe(expected);
  });
});

describe("createStderrLogger", () => {
  it("writes JSON lines at or above its level", () => {
    const lines: string[] = [];
    const logger = createStderrLogger("warn", (line) => lines.push(line));
    logger.info({ a: 1 }, "skipped");
    logger.warn({ a: 1, msg: "spoof" }, "kept");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? "")).toMatchObject({ level: "warn", msg: "kept", a: 1 });
  });
});
