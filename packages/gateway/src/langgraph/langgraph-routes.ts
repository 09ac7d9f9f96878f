/**
 * The LangGraph-Platform-compatible API (assistants, threads, thread state,
 * runs, SSE) as a gateway route plugin, on `@deerflow/runtime`.
 */
import type { AssistantStore, RunManager } from "@deerflow/runtime";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import type { FastifyPluginAsync } from "fastify";
import type { ThreadAuthorizer } from "../auth/thread-access.js";
import { GatewayError } from "../errors.js";
import { AssistantDirectory } from "./assistant-directory.js";
import type { AssistantRegistry } from "./assistant-registry.js";
import { registerAssistantWriteRoutes } from "./assistant-write-routes.js";
import { registerAssistantRoutes } from "./assistants-routes.js";
import type { LangGraphContext } from "./context.js";
import { LiveResponses } from "./live-response.js";
import { registerRunRoutes } from "./runs-routes.js";
import { registerStateRoutes } from "./state-routes.js";
import { registerTokenUsageRoute } from "./token-usage-route.js";
import { ThreadStateAccess } from "./state-graph.js";
import { registerThreadRoutes } from "./threads-routes.js";

/** Default idle time before an SSE heartbeat (and a `/wait` keep-alive newline): 15 s, as DeerFlow. */
export const DEFAULT_HEARTBEAT_MS = 15_000;

/** Options of {@link langgraphRoutes}. */
export interface LangGraphRoutesOptions {
  /** Admits, executes and streams runs; its `store` holds the threads. Its `graphs` should be `assistants.graphs`. */
  readonly manager: RunManager;
  /** The checkpointer the manager's graphs use (thread state, history, deletion). */
  readonly checkpointer: BaseCheckpointSaver;
  /** The system assistants (one or more per graph; read-only). */
  readonly assistants: AssistantRegistry;
  /**
   * Where users' own assistants live (`POST /assistants`, versions, ...), each
   * visible to its owner (`request.principal.userId`) and to admins only.
   * Absent: only the system assistants exist and writes answer 403.
   */
  readonly assistantStore?: AssistantStore;
  /** Idle time before a heartbeat comment line on SSE streams (and a newline on `/wait`, `/join`). Default 15 000 ms. */
  readonly heartbeatMs?: number;
  /**
   * Per-thread authorization (the gateway's `authorizeThread`), run before any
   * access to a thread and to filter search results.
   */
  readonly authorizeThread?: ThreadAuthorizer;
}

/**
 * The LangGraph-compatible routes, for `createGateway({ routes: [...] })` (mounted under `/api`):
 *
 * - `GET /assistants/:assistant_id` (+ `/graph`, `/schemas`), `POST /assistants/search`, `/assistants/count`
 * - `POST /assistants`, `PATCH|DELETE /assistants/:assistant_id`, `POST /assistants/:assistant_id/versions|latest`
 * - `POST /threads`, `/threads/search`, `/threads/count`; `GET|PATCH|DELETE /threads/:thread_id`
 * - `GET /threads/:thread_id/state[/:checkpoint_id]`, `POST /threads/:thread_id/state[/checkpoint]`, `GET|POST /threads/:thread_id/history`
 * - `POST /threads/:thread_id/runs[/stream|/wait]`, `GET /threads/:thread_id/runs[/:run_id]`, `DELETE .../runs/:run_id`,
 *   `POST .../runs/:run_id/cancel`, `GET .../runs/:run_id/join`, `GET .../runs/:run_id/stream`
 * - stateless `POST /runs[/stream|/wait]`, `GET /runs/:run_id/stream`
 *
 * The SDK's `new Client({ apiUrl: "http://host:port/api" })` talks to it unchanged.
 *
 * @param options - the run manager, checkpointer, system assistants and optional assistant store.
 * @returns the plugin.
 * @throws GatewayError `CONFIG_INVALID` for a bad `heartbeatMs`.
 * @example
 * ```ts
 * const checkpointer = new MemorySaver();
 * const assistants = new AssistantRegistry([{ assistantId: randomUUID(), graphId: "agent", graph: ({ checkpointer }) => build(checkpointer), stateGraph: build }]);
 * const manager = new RunManager({ graphs: assistants.graphs, checkpointer });
 * const app = await createGateway({ routes: [langgraphRoutes({ manager, checkpointer, assistants })] });
 * await app.listen({ port: 2024 });
 * ```
 */
export function langgraphRoutes(options: LangGraphRoutesOptions): FastifyPluginAsync {
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  if (!Number.isInteger(heartbeatMs) || heartbeatMs < 1 || heartbeatMs > 2_147_483_647) {
    throw new GatewayError(
      "CONFIG_INVALID",
      `heartbeatMs must be a positive integer number of milliseconds, got ${String(options.heartbeatMs)}`,
    );
  }
  return async (app) => {
    const ctx: LangGraphContext = {
      manager: options.manager,
      assistants: options.assistants,
      directory: new AssistantDirectory(options.assistants, options.assistantStore),
      state: new ThreadStateAccess(options.assistants, options.checkpointer),
      live: new LiveResponses(),
      heartbeatMs,
      prefix: app.prefix,
      authorizeThread: options.authorizeThread,
    };
    // Open streams would hold `close()` until their runs end: end them first (their runs go on).
    app.addHook("preClose", async () => ctx.live.closeAll());
    registerAssistantRoutes(app, ctx);
    registerAssistantWriteRoutes(app, ctx);
    registerThreadRoutes(app, ctx);
    registerStateRoutes(app, ctx);
    registerTokenUsageRoute(app, ctx);
    registerRunRoutes(app, ctx);
  };
}
