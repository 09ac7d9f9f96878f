/**
 * The server's graceful shutdown, in dependency order: stop admitting requests,
 * let local runs drain (their SSE streams open to their real `end`), then close
 * the HTTP server, the runtime components and the agent's resources.
 */
import { drainGateway } from "@deerflow/gateway";
import type { RunManager } from "@deerflow/runtime";
import type { FastifyInstance } from "fastify";
import type { ServerLogger } from "./logger.js";

/** Options of `DeerFlowServer.close`. */
export interface CloseServerOptions {
  /** Let running runs finish for up to the shutdown timeout before interrupting them. Default true. */
  readonly drain?: boolean;
  /** Override of the deployment's shutdown timeout. */
  readonly timeoutMs?: number;
}

/** What a shutdown takes down. */
export interface ShutdownParts {
  readonly app: FastifyInstance;
  readonly manager: RunManager;
  readonly logger: ServerLogger;
  /** The run store, stream bridge, coordinator and checkpointer. */
  readonly components: { close(): Promise<void> };
  /** The agent's sandbox provider and catalog watcher. */
  readonly agent: { close(): Promise<void> };
  /** The deployment's drain budget (`options.timeoutMs` overrides it). */
  readonly shutdownTimeoutMs: number;
}

/**
 * How long requests still in flight once the local runs are done (the last frames of their
 * streams, SSE of runs executed elsewhere, an upload) may take before they are ended.
 */
const REQUEST_GRACE_MS = 2_000;
/** `Retry-After` of the 503s a draining server answers: another instance (or this one restarted) takes the retry. */
const DRAIN_RETRY_AFTER_SECONDS = 1;

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * Drains the server and closes everything it opened. New requests get 503 (`Retry-After`) from
 * the start; local runs drain for up to the timeout (or are interrupted at once with
 * `drain: false`), then the runs still going are interrupted; the HTTP server closes (ending the
 * streams of runs executed elsewhere: clients resume there with Last-Event-ID), then the
 * components and the agent's resources; connections still open after a short grace are cut.
 * Never throws: failures are logged.
 *
 * @param parts - the server's parts
 * @param options - drain or not, and the timeout
 */
export async function drainAndClose(parts: ShutdownParts, options: CloseServerOptions): Promise<void> {
  const { app, manager, logger } = parts;
  const timeoutMs = options.timeoutMs ?? parts.shutdownTimeoutMs;
  const drain = options.drain ?? true;
  logger.info(
    { event: "shutdown", drain, timeoutMs, localRuns: manager.localRunCount },
    drain
      ? "shutting down: no new requests; draining local runs"
      : "shutting down: no new requests; interrupting local runs",
  );
  // New requests get 503 from now on; the ones in flight go on, so the SSE streams of local runs
  // see every event and their real `end` as the runs finish (or are interrupted at the deadline).
  const requests = drainGateway(app, { retryAfterSeconds: DRAIN_RETRY_AFTER_SECONDS });
  try {
    await manager.shutdown({ drain, timeoutMs });
  } catch (err) {
    logger.error({ err }, "run manager shutdown failed");
  }
  await requests.settled(REQUEST_GRACE_MS);
  // Ends the streams still open (runs executed elsewhere: clients resume there with Last-Event-ID).
  const appClosed = app.close().catch((err: unknown) => logger.warn({ err }, "closing the HTTP server failed"));
  await parts.components.close();
  await parts.agent
    .close()
    .catch((err: unknown) => logger.warn({ err }, "closing the agent's sandbox provider failed"));
  // Anything still open (a slow upload, a /wait) is cut after a short grace.
  const closedInTime = await Promise.race([appClosed.then(() => true), delay(REQUEST_GRACE_MS).then(() => false)]);
  if (!closedInTime) {
    app.server.closeAllConnections();
    await appClosed;
  }
  logger.info({ event: "shutdown" }, "shutdown complete");
}
