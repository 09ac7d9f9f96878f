import { describe, expect, it } from "vitest";
import { SandboxError } from "../errors.js";
import {
  commandEnvironment,
  isSecretName,
  sandboxEnvironment,
  scrubEnvironment,
  validateEnvironment,
} from "./environment.js";

describe("isSecretName", () => {
  it.each([
    "OPENAI_API_KEY",
    "my_api_key",
    "AWS_SECRET_ACCESS_KEY",
    "GITHUB_TOKEN",
    "PGPASSWORD",
    "GOOGLE_APPLICATION_CREDENTIALS",
    "SENTRY_DSN",
    "GIT_ASKPASS",
    "SSH_ASKPASS",
  ])("flags %s by pattern", (name) => expect(isSecretName(name)).toBe(true));

  it.each([
    "DATABASE_URL",
    "redis_url",
    "MONGODB_URI",
    "GH_PAT",
    "MYSQL_PWD",
    "REDISCLI_AUTH",
    "PGSERVICEFILE",
    "PGPASSFILE",
    "NPM_CONFIG__AUTH",
    "SSH_AUTH_SOCK",
  ])("flags the exact name %s", (name) => expect(isSecretName(name)).toBe(true));

  it.each(["PATH", "HOME", "LANG", "TZ", "NODE_ENV", "DATABASE_URLS_ENABLED"])("keeps %s", (name) =>
    expect(isSecretName(name)).toBe(false),
  );
});

describe("scrubEnvironment", () => {
  it("drops secrets and unset entries and copies the rest", () => {
    const env = { PATH: "/usr/bin", MY_API_KEY: "k", DATABASE_URL: "postgres://u:p@h/db", EMPTY: undefined, LANG: "C" };
    expect(scrubEnvironment(env)).toEqual({ PATH: "/usr/bin", LANG: "C" });
  });

  it("returns a copy that does not alias the input", () => {
    const env = { PATH: "/usr/bin" };
    const out = scrubEnvironment(env);
    out["PATH"] = "/changed";
    expect(env.PATH).toBe("/usr/bin");
  });
});

describe("sandboxEnvironment", () => {
  it("is the fixed minimal environment plus allowlisted host values", () => {
    const host = {
      PATH: "/root/.pyenv/shims:/usr/bin",
      HOME: "/root",
      MY_API_KEY: "k",
      TZ: "Europe/Paris",
      USER: "root",
    };
    expect(sandboxEnvironment(host)).toEqual({
      PATH: "/usr/local/bin:/usr/bin:/bin",
      HOME: "/mnt/user-data/workspace",
      LANG: "C.UTF-8",
      TMPDIR: "/tmp",
      TERM: "dumb",
      TZ: "Europe/Paris",
    });
  });
});

describe("validateEnvironment", () => {
  it.each(["1ABC", "A-B", "A B", "", "A=B", "É"])("rejects the name %j", (name) => {
    expect(() => validateEnvironment({ [name]: "x" })).toThrowError(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
  });

  it("rejects a value with a NUL byte", () => {
    expect(() => validateEnvironment({ A: "x\0y" })).toThrowError(SandboxError);
  });

  it("accepts POSIX names", () => {
    expect(() => validateEnvironment({ _A1: "x", abc: "" })).not.toThrow();
  });
});

describe("commandEnvironment", () => {
  it("lays per-call variables over the runner's base", () => {
    const runner = { baseEnvironment: () => ({ PATH: "/bin", HOME: "/h" }) };
    expect(commandEnvironment(runner, { HOME: "/x", GITHUB_TOKEN: "t" })).toEqual({
      PATH: "/bin",
      HOME: "/x",
      GITHUB_TOKEN: "t",
    });
  });

  it("starts from nothing for a runner without a base", () => {
    expect(commandEnvironment({}, { A: "1" })).toEqual({ A: "1" });
  });

  it("rejects a bad per-call name", () => {
    expect(() => commandEnvironment({}, { "BAD-NAME": "1" })).toThrowError(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
  });
});
