/**
 * Options of {@link RemoteSandboxProvider} and their defaults.
 */
import { SandboxError } from "../../errors.js";
import { silentLogger, type Logger } from "../../logger.js";
import { systemClock, type Clock } from "./clock.js";
import { HttpProvisionerBackend } from "./http-provisioner-backend.js";
import type { SandboxBackend } from "./sandbox-backend.js";

/** Options of `RemoteSandboxProvider`. Give `backend` or `url`. */
export interface RemoteSandboxProviderOptions {
  /** Where sandboxes live. */
  readonly backend?: SandboxBackend;
  /** Shortcut: an `HttpProvisionerBackend` on this URL (the sandbox service's base URL). */
  readonly url?: string;
  /** Sent as `X-API-Key` to the sandboxes (and to the backend built from `url`). */
  readonly apiKey?: string;
  /** Most live sandboxes (active + warm) before warm ones are evicted. Default 3 (DeerFlow's `replicas`). */
  readonly maxSandboxes?: number;
  /** Idle time after which a sandbox is destroyed; 0 disables reaping. Default 600 000 ms. */
  readonly idleTimeoutMs?: number;
  /** How often the reaper runs. Default 60 000 ms. */
  readonly reapIntervalMs?: number;
  /** Pause between readiness probes. Default 250 ms. */
  readonly readyIntervalMs?: number;
  /** Total readiness wait. Default 60 000 ms. */
  readonly readyTimeoutMs?: number;
  /** Timeout of one readiness probe. Default 5 000 ms. */
  readonly probeTimeoutMs?: number;
  /** Per-request timeout of the sandboxes' file operations (see `RemoteSandboxOptions`). */
  readonly requestTimeoutMs?: number;
  /** Default: the system clock. */
  readonly clock?: Clock;
  /** Default: the global `fetch`. */
  readonly fetch?: typeof fetch;
  readonly logger?: Logger;
}

/** {@link RemoteSandboxProviderOptions} with defaults applied. */
export interface ResolvedProviderOptions {
  readonly backend: SandboxBackend;
  readonly apiKey: string | undefined;
  readonly maxSandboxes: number;
  readonly idleTimeoutMs: number;
  readonly reapIntervalMs: number;
  readonly readyIntervalMs: number;
  readonly readyTimeoutMs: number;
  readonly probeTimeoutMs: number;
  readonly requestTimeoutMs: number | undefined;
  readonly clock: Clock;
  readonly fetch: typeof fetch | undefined;
  readonly logger: Logger;
}

function positive(name: string, value: number, allowZero = false): number {
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new SandboxError(
      "CONFIG_INVALID",
      `${name} must be a ${allowZero ? "non-negative" : "positive"} number: ${value}`,
    );
  }
  return value;
}

/**
 * Applies defaults and validates.
 *
 * @param options - What the caller passed.
 * @returns The resolved options.
 * @throws SandboxError `CONFIG_INVALID` without `backend` and `url`, or with a bad limit.
 */
export function resolveProviderOptions(options: RemoteSandboxProviderOptions): ResolvedProviderOptions {
  const { backend, url, apiKey } = options;
  if (backend === undefined && url === undefined)
    throw new SandboxError("CONFIG_INVALID", "RemoteSandboxProvider needs a backend or a url");
  const maxSandboxes = options.maxSandboxes ?? 3;
  if (!Number.isInteger(maxSandboxes) || maxSandboxes < 1)
    throw new SandboxError("CONFIG_INVALID", `maxSandboxes must be a positive integer: ${maxSandboxes}`);
  return {
    backend:
      backend ??
      new HttpProvisionerBackend({
        url: url ?? "",
        ...(apiKey === undefined ? {} : { apiKey }),
        ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
      }),
    apiKey,
    maxSandboxes,
    idleTimeoutMs: positive("idleTimeoutMs", options.idleTimeoutMs ?? 600_000, true),
    reapIntervalMs: positive("reapIntervalMs", options.reapIntervalMs ?? 60_000),
    readyIntervalMs: positive("readyIntervalMs", options.readyIntervalMs ?? 250),
    readyTimeoutMs: positive("readyTimeoutMs", options.readyTimeoutMs ?? 60_000),
    probeTimeoutMs: positive("probeTimeoutMs", options.probeTimeoutMs ?? 5_000),
    requestTimeoutMs: options.requestTimeoutMs,
    clock: options.clock ?? systemClock,
    fetch: options.fetch,
    logger: options.logger ?? silentLogger,
  };
}
