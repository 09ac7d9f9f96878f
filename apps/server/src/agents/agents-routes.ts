/**
 * DeerFlow's custom-agent routes (§7) over an `AgentStore`, always for the
 * authenticated caller (`request.principal.userId`; a body never names a
 * user): `GET|POST /api/agents`, `GET /api/agents/check?name=`,
 * `GET|PUT|DELETE /api/agents/{name}`, `GET|PUT /api/user-profile`, with
 * DeerFlow's bodies, statuses and texts. Off unless `agents_api.enabled`:
 * every route then answers 403 with DeerFlow's text (the routes stay
 * registered, so `/openapi.json` documents them either way).
 */
import {
  AgentError,
  agentConfigOf,
  applyAgentFields,
  checkAgentFields,
  invalidAgentNameText,
  normalizeAgentName,
  type AgentConfig,
  type AgentStore,
} from "@deerflow/agent";
import type { Principal } from "@deerflow/gateway";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";

/** A change made through the routes, for hooks (the agent's LangGraph assistant follows it). */
export interface AgentRouteChange {
  readonly kind: "created" | "updated" | "deleted";
  readonly userId: string;
  /** The stored config (for `deleted`: the name only is meaningful). */
  readonly config: AgentConfig;
}

/** What the routes are built over. */
export interface AgentsRoutesOptions {
  readonly store: AgentStore;
  /** `agents_api.enabled`. */
  readonly enabled: boolean;
  /** Whether a name is a configured model (`model` of a create or update must be). */
  readonly hasModel: (name: string) => boolean;
  /** Called after a create, update or delete (a failure is logged; the route still answers). */
  readonly onChange?: (change: AgentRouteChange) => Promise<void> | void;
}

/** DeerFlow's 403 text while `agents_api.enabled` is false. */
export const AGENTS_API_DISABLED_TEXT =
  "Custom-agent management API is disabled. Set agents_api.enabled=true to expose agent and user-profile routes over HTTP.";

const STATUS: Record<string, number> = {
  AGENT_NAME_INVALID: 422,
  AGENT_CONFIG_INVALID: 422,
  AGENT_NOT_FOUND: 404,
  AGENT_EXISTS: 409,
  AGENT_LEGACY_ONLY: 409,
  AGENT_MEMORY_ONLY: 409,
};

const nullableList = { type: ["array", "null"], items: { type: "string", maxLength: 256 }, maxItems: 1000 };
const modelSettings = {
  type: ["object", "null"],
  additionalProperties: false,
  properties: {
    temperature: { type: ["number", "null"], minimum: 0, maximum: 2 },
    max_tokens: { type: ["integer", "null"], minimum: 1, maximum: 200_000 },
  },
};
const fieldProperties = {
  description: { type: ["string", "null"], maxLength: 10_000 },
  model: { type: ["string", "null"], maxLength: 256 },
  tool_groups: nullableList,
  skills: nullableList,
  model_settings: modelSettings,
  thinking_enabled: { type: ["boolean", "null"] },
  reasoning_effort: { enum: ["low", "medium", "high", null] },
};
/** SOUL.md and USER.md: 1 MiB is far beyond a persona and keeps a prompt from being a denial of service. */
const MAX_TEXT = 1024 * 1024;
const createBody = {
  type: "object",
  additionalProperties: false,
  required: ["name"],
  properties: {
    name: { type: "string", maxLength: 256 },
    ...fieldProperties,
    soul: { type: "string", maxLength: MAX_TEXT },
  },
};
const updateBody = {
  type: "object",
  additionalProperties: false,
  properties: { ...fieldProperties, soul: { type: ["string", "null"], maxLength: MAX_TEXT } },
};
const nameParams = {
  type: "object",
  required: ["name"],
  properties: { name: { type: "string", maxLength: 256 } },
};
const checkQuery = {
  type: "object",
  required: ["name"],
  properties: { name: { type: "string", maxLength: 256 } },
};
const profileBody = {
  type: "object",
  additionalProperties: false,
  properties: { content: { type: "string", maxLength: MAX_TEXT } },
};

const docs = (summary: string, errors: readonly number[]): Record<string, unknown> => ({
  summary,
  tags: ["agents"],
  "x-errors": [403, ...errors],
});

type Fields = Record<string, unknown>;

function userOf(request: FastifyRequest): string {
  return (request as FastifyRequest & { principal: Principal }).principal.userId;
}

/** An answer with DeerFlow's status and text for the store's errors; other failures are 500 with `fallback`. */
async function answer(reply: FastifyReply, fallback: string, work: () => Promise<unknown>): Promise<unknown> {
  try {
    return await work();
  } catch (err) {
    if (AgentError.isInstance(err) && STATUS[err.code] !== undefined)
      return reply.code(STATUS[err.code] as number).send({ detail: err.message });
    reply.log.error({ err }, fallback);
    return reply.code(500).send({ detail: `${fallback}: ${(err as Error).message}` });
  }
}

/** DeerFlow's name check: 422 with its text, else the lowercase name. */
function nameOrReply(reply: FastifyReply, name: string): string | undefined {
  try {
    return normalizeAgentName(name);
  } catch {
    void reply.code(422).send({ detail: invalidAgentNameText(name) });
    return undefined;
  }
}

function unknownModelText(model: string): string {
  return `Unknown model '${model}'. Use a model name defined under \`models:\` in config.yaml.`;
}

/** The wire form of an agent (DeerFlow's `AgentResponse`). */
function toResponse(config: AgentConfig, soul: string | null): Record<string, unknown> {
  return {
    name: config.name,
    description: config.description,
    model: config.model,
    tool_groups: config.tool_groups,
    skills: config.skills,
    model_settings: config.model_settings,
    thinking_enabled: config.thinking_enabled,
    reasoning_effort: config.reasoning_effort,
    soul,
  };
}

/**
 * The routes plugin (mount under `/api`).
 *
 * @param options - the store, the gate, the model check and the change hook
 * @returns the Fastify plugin
 * @example
 * ```ts
 * createGateway({ ..., routes: [agentsRoutes({ store: new FileAgentStore({ dataDir }), enabled: true, hasModel })] });
 * ```
 */
export function agentsRoutes(options: AgentsRoutesOptions): FastifyPluginAsync {
  const { store } = options;
  const changed = async (request: FastifyRequest, change: AgentRouteChange): Promise<void> => {
    try {
      await options.onChange?.(change);
    } catch (err) {
      request.log.warn({ err, agent: change.config.name }, "custom agent change hook failed");
    }
  };
  return async (app) => {
    // Before validation: a disabled API says so, whatever the request.
    app.addHook("onRequest", async (_request, reply) => {
      if (!options.enabled) return reply.code(403).send({ detail: AGENTS_API_DISABLED_TEXT });
      return undefined;
    });

    app.get("/agents", { schema: docs("The caller's custom agents (without SOUL.md)", [500]) }, (req, reply) =>
      answer(reply, "Failed to list agents", async () => ({
        agents: (await store.list(userOf(req))).map((a) => toResponse(a, null)),
      })),
    );

    app.get<{ Querystring: { name: string } }>(
      "/agents/check",
      { schema: { querystring: checkQuery, ...docs("Whether a name is free for the caller", [422]) } },
      (req, reply) => {
        const name = nameOrReply(reply, req.query.name);
        if (name === undefined) return reply;
        return answer(reply, "Failed to check agent name", async () => ({
          available: !(await store.exists(userOf(req), name)),
          name,
        }));
      },
    );

    app.get<{ Params: { name: string } }>(
      "/agents/:name",
      { schema: { params: nameParams, ...docs("One custom agent with its SOUL.md", [404, 422, 500]) } },
      (req, reply) => {
        const name = nameOrReply(reply, req.params.name);
        if (name === undefined) return reply;
        return answer(reply, "Failed to get agent", async () => {
          const user = userOf(req);
          const config = await store.get(user, name);
          if (config === undefined) return reply.code(404).send({ detail: `Agent '${name}' not found` });
          return toResponse(config, (await store.getSoul(user, name)) ?? "");
        });
      },
    );

    app.post<{ Body: Fields & { name: string; soul?: string } }>(
      "/agents",
      { schema: { body: createBody, ...docs("Create a custom agent", [409, 422, 500]) } },
      (req, reply) => {
        const name = nameOrReply(reply, req.body.name);
        if (name === undefined) return reply;
        const model = req.body["model"];
        if (typeof model === "string" && !options.hasModel(model))
          return reply.code(422).send({ detail: unknownModelText(model) });
        return answer(reply, "Failed to create agent", async () => {
          const { name: _name, soul, ...raw } = req.body;
          const user = userOf(req);
          const config = await store.create(user, agentConfigOf(name, checkAgentFields(name, raw)), soul ?? "");
          await changed(req, { kind: "created", userId: user, config });
          return reply.code(201).send(toResponse(config, soul ?? ""));
        });
      },
    );

    app.put<{ Params: { name: string }; Body: Fields & { soul?: string | null } }>(
      "/agents/:name",
      {
        schema: {
          params: nameParams,
          body: updateBody,
          ...docs("Change a custom agent; omitted fields are kept", [404, 409, 422, 500]),
        },
      },
      (req, reply) => {
        const name = nameOrReply(reply, req.params.name);
        if (name === undefined) return reply;
        const model = req.body["model"];
        if (typeof model === "string" && !options.hasModel(model))
          return reply.code(422).send({ detail: unknownModelText(model) });
        return answer(reply, "Failed to update agent", async () => {
          const user = userOf(req);
          const current = await store.get(user, name);
          if (current === undefined) return reply.code(404).send({ detail: `Agent '${name}' not found` });
          const { soul, ...raw } = req.body;
          const fields = checkAgentFields(name, raw);
          const configChanged = Object.keys(fields).length > 0;
          const stored =
            configChanged || typeof soul === "string"
              ? await store.update(user, name, {
                  ...(configChanged ? { config: applyAgentFields(current, fields, raw["model_settings"]) } : {}),
                  ...(typeof soul === "string" ? { soul } : {}),
                })
              : current;
          await changed(req, { kind: "updated", userId: user, config: stored });
          return toResponse(stored, (await store.getSoul(user, name)) ?? "");
        });
      },
    );

    app.delete<{ Params: { name: string } }>(
      "/agents/:name",
      { schema: { params: nameParams, ...docs("Delete a custom agent", [404, 409, 422, 500]) } },
      (req, reply) => {
        const name = nameOrReply(reply, req.params.name);
        if (name === undefined) return reply;
        return answer(reply, "Failed to delete agent", async () => {
          const user = userOf(req);
          await store.delete(user, name);
          await changed(req, { kind: "deleted", userId: user, config: agentConfigOf(name, {}) });
          return reply.code(204).send();
        });
      },
    );

    app.get("/user-profile", { schema: docs("The caller's USER.md", [500]) }, (req, reply) =>
      answer(reply, "Failed to read user profile", async () => ({
        content: (await store.getUserProfile(userOf(req))) ?? null,
      })),
    );

    app.put<{ Body: { content?: string } }>(
      "/user-profile",
      { schema: { body: profileBody, ...docs("Replace the caller's USER.md", [500]) } },
      (req, reply) =>
        answer(reply, "Failed to update user profile", async () => {
          const content = req.body.content ?? "";
          await store.setUserProfile(userOf(req), content);
          return { content: content.trim() === "" ? null : content };
        }),
    );
  };
}
