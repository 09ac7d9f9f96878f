/**
 * `GET /health` (component checks) and `GET /ok` (the LangGraph Platform's
 * liveness route). Both are open when authentication is on.
 */
import type { FastifyInstance } from "fastify";
import type { GatewayDrain } from "../http/drain.js";

/** A component check: resolves when healthy, rejects (or times out) when not. */
export type HealthCheck = () => Promise<void>;

/** Options of {@link registerHealthRoutes}. */
export interface HealthOptions {
  /** Named checks run concurrently on every `GET /health`. */
  readonly checks?: Readonly<Record<string, HealthCheck>>;
  /** A check that has not settled after this many milliseconds fails. Default 5000. */
  readonly timeoutMs?: number;
  /** Figures reported under `details` (e.g. stream gaps); a throwing provider is logged and left out. */
  readonly details?: HealthDetails;
  /** The gateway's drain state: while draining, `/health` answers 503 with `"draining": true`. */
  readonly drain?: GatewayDrain;
}

/** Provides the `details` object of `GET /health` (JSON, snake_case keys on the wire). */
export type HealthDetails = () => Readonly<Record<string, unknown>>;

/** Default time limit of one health check. */
export const DEFAULT_HEALTH_TIMEOUT_MS = 5000;

const healthResponse = {
  type: "object",
  required: ["status"],
  properties: {
    status: { type: "string", enum: ["ok", "unavailable"] },
    draining: { type: "boolean" },
    checks: { type: "object", additionalProperties: { type: "string", enum: ["ok", "failed"] } },
    details: { type: "object", additionalProperties: true },
  },
} as const;

async function runCheck(check: HealthCheck, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`health check timed out after ${timeoutMs} ms`)), timeoutMs);
    timer.unref();
  });
  try {
    await Promise.race([Promise.resolve().then(check), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Registers the probes on the root instance.
 *
 * `GET /health` answers 200 `{"status":"ok"}` (plus `"checks": {name: "ok"}` when checks are
 * configured) or 503 `{"status":"unavailable","checks":{...,"db":"failed"}}`; while the gateway
 * drains, 503 `{"status":"unavailable","draining":true}`. `details` (when configured) is added to
 * every answer. Failure reasons are logged, never sent: the route is public.
 *
 * @param app - the root instance.
 * @param options - the component checks.
 */
export function registerHealthRoutes(app: FastifyInstance, options: HealthOptions = {}): void {
  const checks = Object.entries(options.checks ?? {});
  const timeoutMs = options.timeoutMs ?? DEFAULT_HEALTH_TIMEOUT_MS;

  app.get(
    "/health",
    {
      schema: {
        summary: "Health check with component checks",
        tags: ["health"],
        security: [],
        response: { 200: healthResponse, 503: healthResponse },
      },
    },
    async (request, reply) => {
      let details: Readonly<Record<string, unknown>> | undefined;
      try {
        details = options.details?.();
      } catch (err) {
        request.log.warn({ err }, "health details failed");
      }
      const extra = details === undefined ? {} : { details };
      if (options.drain?.draining === true)
        return reply.code(503).send({ status: "unavailable", draining: true, ...extra });
      if (checks.length === 0) return { status: "ok", ...extra };
      const results = await Promise.allSettled(checks.map(([, check]) => runCheck(check, timeoutMs)));
      const report: Record<string, "ok" | "failed"> = {};
      let healthy = true;
      results.forEach((r, i) => {
        const name = checks[i]?.[0] ?? String(i);
        if (r.status === "fulfilled") {
          report[name] = "ok";
          return;
        }
        healthy = false;
        report[name] = "failed";
        request.log.warn({ check: name, err: r.reason }, "health check failed");
      });
      return reply.code(healthy ? 200 : 503).send({ status: healthy ? "ok" : "unavailable", checks: report, ...extra });
    },
  );

  app.get(
    "/ok",
    {
      schema: {
        summary: "Liveness probe (LangGraph Platform)",
        tags: ["health"],
        security: [],
        response: { 200: { type: "object", required: ["ok"], properties: { ok: { type: "boolean" } } } },
      },
    },
    async () => ({ ok: true }),
  );
}
