/**
 * Route-level admin gate.
 */
import type { onRequestAsyncHookHandler } from "fastify";
import { GatewayError } from "../errors.js";

/** DeerFlow's 403 detail of the skills routes. */
export const SKILLS_ADMIN_MESSAGE = "Admin privileges required to manage skills.";

/**
 * An `onRequest` hook rejecting non-admin callers with 403. As an `onRequest`
 * hook it runs before the body is parsed or validated, so a non-admin caller
 * learns nothing about the route's schema.
 *
 * @param message - the 403 detail.
 * @returns the hook, for a route's `onRequest` option.
 * @example
 * ```ts
 * app.post("/things", { onRequest: requireAdmin("Admin privileges required.") }, handler);
 * ```
 */
export function requireAdmin(message: string = SKILLS_ADMIN_MESSAGE): onRequestAsyncHookHandler {
  return async (request) => {
    if (!request.principal.admin) throw new GatewayError("FORBIDDEN", message);
  };
}
