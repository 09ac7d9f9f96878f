import { describe, expect, it } from "vitest";
import { createStderrLogger } from "./stderr-logger.js";
import { DEFAULT_SERVER_LIMITS, isLoopback, parseLimits, parseServerConfig, UsageError } from "./server-config.js";

describe("parseServerConfig", () => {
  it("applies defaults", () => {
    expect(parseServerConfig([], {}, "/srv")).toEqual({
      host: "127.0.0.1",
      port: 8080,
      baseDir: "/srv/.deer-flow",
      skillsDir: undefined,
      apiKey: undefined,
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
      ["--port", "0", "--host=::1", "--base-dir", "data", "--skills-dir", "/skills", "--allow-host-bash", "--body-limit", "2048"],
      { SANDBOX_PORT: "9", SANDBOX_HOST: "10.0.0.1", SANDBOX_API_KEY: "k" },
      "/srv",
    );
    expect(config).toMatchObject({ port: 0, host: "::1", baseDir: "/srv/data", skillsDir: "/skills", allowHostBash: true, apiKey: "k", bodyLimit: 2048 });
  });

  it("reads the environment", () => {
    const config = parseServerConfig([], { SANDBOX_PORT: "9000", SANDBOX_BASE_DIR: "/data", SANDBOX_ALLOW_HOST_BASH: "true", SANDBOX_LOG_LEVEL: "warn" }, "/srv");
    expect(config).toMatchObject({ port: 9000, baseDir: "/data", allowHostBash: true, logLevel: "warn" });
  });

  it("refuses a non-loopback bind without an API key", () => {
    expect(() => parseServerConfig(["--host", "0.0.0.0"], {}, "/")).toThrow(UsageError);
    expect(parseServerConfig(["--host", "0.0.0.0", "--allow-no-auth"], {}, "/")).toMatchObject({ host: "0.0.0.0" });
    expect(parseServerConfig(["--host", "0.0.0.0"], { SANDBOX_API_KEY: "k" }, "/")).toMatchObject({ apiKey: "k" });
  });

  it.each([[["--port", "70000"]], [["--port", "-1"]], [["--port", "8e3"]], [["--nope"]], [["--log-level", "loud"]], [["stray"]]])("rejects %j", (argv) => {
    expect(() => parseServerConfig(argv, {}, "/")).toThrow(UsageError);
  });

  it("returns help for --help", () => {
    expect(parseServerConfig(["-h"], {}, "/")).toBe("help");
  });
});

describe("parseLimits", () => {
  it("overrides defaults and removes a limit set to 0", () => {
    const limits = parseLimits('{"fileSizeBytes": 1048576, "cpuSeconds": 0}');
    expect(limits).toEqual({ ...DEFAULT_SERVER_LIMITS, fileSizeBytes: 1048576, cpuSeconds: undefined });
    expect("cpuSeconds" in limits).toBe(false);
  });

  it.each(["nope", "[]", '{"disk": 1}', '{"processes": -1}', '{"processes": 1.5}', '{"processes": "9"}'])("rejects %s", (text) => {
    expect(() => parseLimits(text)).toThrow(UsageError);
  });
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
