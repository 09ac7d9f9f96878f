/**
 * `GET /api/models` and `GET /api/models/:name` (DeerFlow's `/api/models`):
 * the configured chat models a run may pick with `model_name`, and whether
 * token usage is recorded. The gateway knows no configuration: a
 * {@link ModelCatalog} injected by the server supplies the list and, when it
 * restricts models per caller, which ones a caller may use.
 */
import type { FastifyInstance } from "fastify";
import type { Principal } from "../auth/principal.js";
import { GatewayError } from "../errors.js";

/** One model as `/api/models` shows it (DeerFlow's fields, snake_case on the wire). */
export interface ModelDescriptor {
  /** The name a run passes as `model_name`. */
  readonly name: string;
  /** The provider's model id. */
  readonly model: string;
  readonly displayName?: string;
  readonly description?: string;
  readonly supportsThinking: boolean;
  readonly supportsReasoningEffort: boolean;
}

/** What the models routes read: injected by the server (`createGateway({ models })`). */
export interface ModelCatalog {
  /** The models, in configuration order (the first is the default). */
  readonly models: () => readonly ModelDescriptor[] | Promise<readonly ModelDescriptor[]>;
  /** `token_usage.enabled` of the configuration. */
  readonly tokenUsageEnabled: boolean;
  /**
   * May this caller use the model? Absent: every caller may use every model.
   * A model refused here is left out of the list and answers 403 by name.
   */
  readonly allows?: (principal: Principal, name: string) => boolean | Promise<boolean>;
}

const nullableString = { type: ["string", "null"] } as const;
const modelItemSchema = {
  type: "object",
  properties: {
    name: { type: "string" },
    model: { type: "string" },
    display_name: nullableString,
    description: nullableString,
    supports_thinking: { type: "boolean" },
    supports_reasoning_effort: { type: "boolean" },
  },
  required: ["name", "model", "display_name", "description", "supports_thinking", "supports_reasoning_effort"],
} as const;

const modelsListSchema = {
  type: "object",
  properties: {
    models: { type: "array", items: modelItemSchema },
    token_usage: { type: "object", properties: { enabled: { type: "boolean" } }, required: ["enabled"] },
  },
  required: ["models", "token_usage"],
} as const;

const nameParamsSchema = {
  type: "object",
  properties: { name: { type: "string", minLength: 1, maxLength: 256 } },
  required: ["name"],
} as const;

function toWire(m: ModelDescriptor) {
  return {
    name: m.name,
    model: m.model,
    display_name: m.displayName ?? null,
    description: m.description ?? null,
    supports_thinking: m.supportsThinking,
    supports_reasoning_effort: m.supportsReasoningEffort,
  };
}

/**
 * Registers the two routes on an instance under the `/api` prefix.
 *
 * @param app - the `/api` instance.
 * @param catalog - the server's models.
 */
export function registerModelsRoutes(app: FastifyInstance, catalog: ModelCatalog): void {
  const allowed = async (principal: Principal, name: string): Promise<boolean> =>
    catalog.allows === undefined ? true : await catalog.allows(principal, name);

  app.get(
    "/models",
    {
      schema: {
        summary: "The configured chat models",
        description: "The first model is the default; a run picks another with `model_name`.",
        tags: ["models"],
        response: { 200: modelsListSchema },
      },
    },
    async (request) => {
      const all = await catalog.models();
      const visible = [];
      for (const m of all) if (await allowed(request.principal, m.name)) visible.push(toWire(m));
      return { models: visible, token_usage: { enabled: catalog.tokenUsageEnabled } };
    },
  );

  app.get<{ Params: { name: string } }>(
    "/models/:name",
    {
      schema: {
        summary: "One configured chat model",
        tags: ["models"],
        params: nameParamsSchema,
        response: { 200: modelItemSchema },
        "x-errors": [403, 404],
      },
    },
    async (request) => {
      const { name } = request.params;
      const found = (await catalog.models()).find((m) => m.name === name);
      if (found === undefined) throw new GatewayError("NOT_FOUND", `Model '${name}' not found`);
      if (!(await allowed(request.principal, name)))
        throw new GatewayError("FORBIDDEN", `Model '${name}' is not available for your role`);
      return toWire(found);
    },
  );
}
