/**
 * Environments for sandboxed commands.
 *
 * Two starting points exist. On the host (`HostRunner`) a command inherits the
 * server's environment minus anything that looks like a credential, as
 * DeerFlow's LocalSandbox does. Under bubblewrap the host environment is not
 * inherited at all: the command starts from a small fixed environment plus an
 * allowlist, because the sandbox has its own `PATH`, `HOME` and `/tmp`.
 * Per-call variables are then merged on top (per-call wins, so a tool can
 * deliberately inject a secret for one command).
 */
import { SandboxError } from "../errors.js";
import { WORKSPACE_PATH } from "../limits.js";
import type { CommandRunner } from "./command-runner.js";

/** Substrings (case-insensitive) that mark a variable name as a secret. */
const SECRET_NAME_PARTS: readonly string[] = ["KEY", "SECRET", "TOKEN", "PASS", "CREDENTIAL", "DSN"];

/**
 * Exact names (compared upper-cased) that carry credentials without matching
 * {@link SECRET_NAME_PARTS}: connection URLs with embedded passwords, files
 * holding passwords, and agent sockets that act as credentials.
 */
const SECRET_EXACT_NAMES: ReadonlySet<string> = new Set([
  "DATABASE_URL",
  "REDIS_URL",
  "MONGODB_URI",
  "MONGO_URL",
  "POSTGRES_URL",
  "MYSQL_URL",
  "AMQP_URL",
  "CELERY_BROKER_URL",
  "GH_PAT",
  "MYSQL_PWD",
  "REDISCLI_AUTH",
  "PGSERVICEFILE",
  "PGPASSFILE",
  "NPM_CONFIG__AUTH",
  "SSH_AUTH_SOCK",
  "GPG_AGENT_INFO",
  "KUBECONFIG",
  "NETRC",
]);

/** Name rule of DeerFlow's `execute_command(env=...)`. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `PATH` inside the bubblewrap sandbox. */
const SANDBOX_PATH = "/usr/local/bin:/usr/bin:/bin";

/**
 * Host variables copied into the bubblewrap sandbox when set. Only values that
 * describe presentation (the time zone) qualify: proxies are left out because
 * their URLs often embed credentials.
 */
const SANDBOX_ENV_ALLOWLIST: readonly string[] = ["TZ"];

/**
 * Tells whether a variable name looks like it holds a secret.
 *
 * @param name - an environment variable name.
 * @returns true for names containing `KEY`, `SECRET`, `TOKEN`, `PASS`,
 *   `CREDENTIAL` or `DSN` (any case), names ending in `_ASKPASS`, and the
 *   known credential-carrying names such as `DATABASE_URL`.
 */
export function isSecretName(name: string): boolean {
  const upper = name.toUpperCase();
  if (SECRET_EXACT_NAMES.has(upper) || upper.endsWith("_ASKPASS")) return true;
  return SECRET_NAME_PARTS.some((part) => upper.includes(part));
}

/**
 * Copies an environment without the variables {@link isSecretName} flags and
 * without unset entries.
 *
 * @param env - usually `process.env`.
 * @returns a fresh record safe to hand to a host command.
 * @example
 * ```ts
 * scrubEnvironment({ PATH: "/usr/bin", OPENAI_API_KEY: "sk-..." }); // { PATH: "/usr/bin" }
 * ```
 */
export function scrubEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || isSecretName(name)) continue;
    out[name] = value;
  }
  return out;
}

/**
 * The environment a bubblewrap command starts from: fixed values that match
 * the sandbox's own filesystem, plus {@link SANDBOX_ENV_ALLOWLIST} entries of
 * `base`. Nothing else from the host gets in.
 *
 * @param base - where allowlisted values come from; defaults to `process.env`.
 * @returns `PATH`, `HOME` (the workspace), `LANG=C.UTF-8`, `TMPDIR=/tmp`,
 *   `TERM=dumb`, and allowlisted host values.
 */
export function sandboxEnvironment(base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {
    PATH: SANDBOX_PATH,
    HOME: WORKSPACE_PATH,
    LANG: "C.UTF-8",
    TMPDIR: "/tmp",
    TERM: "dumb",
  };
  for (const name of SANDBOX_ENV_ALLOWLIST) {
    const value = base[name];
    if (value !== undefined && !isSecretName(name)) env[name] = value;
  }
  return env;
}

/**
 * Checks variable names against DeerFlow's rule and rejects NUL bytes, which
 * cannot be passed to a process.
 *
 * @param env - variables to check.
 * @throws SandboxError `INVALID_ARGUMENT` naming the first bad variable.
 */
export function validateEnvironment(env: Readonly<Record<string, string>>): void {
  for (const [name, value] of Object.entries(env)) {
    if (!ENV_NAME.test(name)) {
      throw new SandboxError("INVALID_ARGUMENT", `Invalid environment variable name: ${JSON.stringify(name)}`);
    }
    if (typeof value !== "string" || value.includes("\0")) {
      throw new SandboxError("INVALID_ARGUMENT", `Invalid value for environment variable ${name}`);
    }
  }
}

/**
 * Builds `CommandSpec.env` for a runner: the runner's
 * {@link CommandRunner.baseEnvironment} (scrubbed host env for the host
 * runner, the minimal sandbox env for bubblewrap) with per-call variables on
 * top.
 *
 * @param runner - the runner that will run the command.
 * @param extra - per-call variables; they win over the base.
 * @returns the merged environment.
 * @throws SandboxError `INVALID_ARGUMENT` for a bad per-call variable name.
 * @example
 * ```ts
 * const env = commandEnvironment(runner, { GITHUB_TOKEN: token });
 * await runner.run({ ...spec, env });
 * ```
 */
export function commandEnvironment(
  runner: Pick<CommandRunner, "baseEnvironment">,
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  validateEnvironment(extra);
  return { ...runner.baseEnvironment?.(), ...extra };
}
