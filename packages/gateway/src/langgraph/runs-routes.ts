/**
 * `/threads/:thread_id/runs...` and the stateless `/runs...`: each concern has
 * its own module (creating, the records, joining); this registers them in the
 * order of the OpenAPI document.
 */
import type { FastifyInstance } from "fastify";
import type { LangGraphContext } from "./context.js";
import { registerStatelessRunCreateRoutes, registerThreadRunCreateRoutes } from "./run-create-routes.js";
import { registerRunJoinRoutes, registerStatelessRunJoinRoute } from "./run-join-routes.js";
import { registerRunRecordRoutes } from "./run-record-routes.js";

/** Registers the thread-bound and stateless run routes. */
export function registerRunRoutes(app: FastifyInstance, ctx: LangGraphContext): void {
  registerThreadRunCreateRoutes(app, ctx);
  registerRunRecordRoutes(app, ctx);
  registerRunJoinRoutes(app, ctx);
  registerStatelessRunCreateRoutes(app, ctx);
  registerStatelessRunJoinRoute(app, ctx);
}
