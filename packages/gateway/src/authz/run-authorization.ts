/**
 * What a run takes from the caller's role (checked on the `runs:create`
 * routes after validation, before the run is admitted):
 *
 * - the role, written to `config.configurable.user_role` (and `context.user_role`
 *   when the context has that key), where the agent reads it to filter its tools
 *   and refuse calls, as it reads `user_id`. A body naming another role is
 *   refused (403) rather than corrected, like a body naming another user.
 * - the model: a run asking for a model its role may not use runs with the first
 *   allowed one (DeerFlow's fallback, logged); a role with no model gets 403
 *   `No models are authorized for the current role.`.
 */
import type { FastifyRequest } from "fastify";
import { roleOf } from "../auth/principal.js";
import { GatewayError } from "../errors.js";
import type { ModelCatalog } from "../models/models-routes.js";
import type { Authorization } from "./authorization.js";

/** The `configurable` (and `context`) key holding a run's role. */
export const RUN_USER_ROLE_KEY = "user_role";

type Members = Record<string, unknown>;
type RunBodyLike = { config?: { configurable?: Members | null } | null; context?: Members | null } | null | undefined;

const text = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/**
 * The model a run body asks for, with the agent's precedence: `context` over `configurable`, `model_name` over `model`.
 *
 * @param body - the run body
 */
function requestedModelOf(body: RunBodyLike): string | undefined {
  const context = body?.context ?? undefined;
  const configurable = body?.config?.configurable ?? undefined;
  const pick = (key: string): unknown => context?.[key] ?? configurable?.[key];
  return text(pick("model_name")) ?? text(pick("model"));
}

/**
 * Writes the caller's role (and, with a catalog, the authorized model) into a validated run body.
 *
 * @param request - the request (its `principal` and validated `body`)
 * @param authorization - the enforcement
 * @param catalog - the models, when the gateway serves them
 * @throws GatewayError `FORBIDDEN` for a body naming another role, or a role allowed no model
 */
export async function authorizeRunBody(
  request: FastifyRequest,
  authorization: Authorization,
  catalog: ModelCatalog | undefined,
): Promise<void> {
  const body = request.body as RunBodyLike;
  if (typeof body !== "object" || body === null) return;
  const role = roleOf(request.principal);
  const claims: ReadonlyArray<readonly [string, unknown]> = [
    [`config.configurable.${RUN_USER_ROLE_KEY}`, body.config?.configurable?.[RUN_USER_ROLE_KEY]],
    [`context.${RUN_USER_ROLE_KEY}`, body.context?.[RUN_USER_ROLE_KEY]],
  ];
  for (const [field, claimed] of claims) {
    if (claimed !== undefined && claimed !== null && claimed !== role)
      throw new GatewayError(
        "FORBIDDEN",
        `${field} names another role: a run runs with the authenticated caller's role (omit it, or send your own).`,
      );
  }
  const config = (body.config ??= {});
  const configurable = (config.configurable ??= {});
  configurable[RUN_USER_ROLE_KEY] = role;
  if (body.context !== null && body.context !== undefined && Object.hasOwn(body.context, RUN_USER_ROLE_KEY))
    body.context[RUN_USER_ROLE_KEY] = role;
  if (catalog === undefined) return;
  const names = (await catalog.models()).map((m) => m.name);
  const requested = requestedModelOf(body);
  const model = await authorization.runModel(request.principal, requested, names);
  // Unchanged, or the default the agent would pick anyway for a missing or unknown name.
  const defaulted = requested === undefined || !names.includes(requested);
  if (model === requested || model === "" || (defaulted && model === names[0])) return;
  // `model_name` in both places wins over any `model` (see requestedModelOf).
  configurable["model_name"] = model;
  if (body.context !== null && body.context !== undefined) body.context["model_name"] = model;
}
