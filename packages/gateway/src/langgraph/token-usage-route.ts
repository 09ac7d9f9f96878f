/**
 * `GET /threads/:thread_id/token-usage` (a DeerFlow extension): the tokens the
 * thread's model calls used, over all its runs and in its latest run, read
 * from the thread's state (`token_usage` and `run_token_usage`, written by the
 * lead agent's `TokenUsageMiddleware`). Scoped like the other thread routes:
 * another user's thread is refused or reported missing.
 */
import type { FastifyInstance } from "fastify";
import { threadParamsSchema } from "../schemas.js";
import { threadOrThrow, type LangGraphContext } from "./context.js";

/** Counts as the state holds them. */
interface Usage {
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly total_tokens: number;
  readonly llm_call_count: number;
}

const count = { type: "integer", minimum: 0 } as const;
const usageSchema = {
  type: "object",
  properties: { input_tokens: count, output_tokens: count, total_tokens: count, llm_call_count: count },
  required: ["input_tokens", "output_tokens", "total_tokens", "llm_call_count"],
} as const;

/** JSON Schema of the answer. */
const tokenUsageResponseSchema = {
  type: "object",
  properties: {
    thread_id: { type: "string" },
    total_input_tokens: count,
    total_output_tokens: count,
    total_tokens: count,
    llm_call_count: count,
    last_run: { anyOf: [usageSchema, { type: "null" }] },
  },
  required: ["thread_id", "total_input_tokens", "total_output_tokens", "total_tokens", "llm_call_count", "last_run"],
} as const;

function usageOf(value: unknown): Usage | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const n = (k: string): number =>
    typeof v[k] === "number" && Number.isFinite(v[k]) && (v[k] as number) >= 0 ? Math.trunc(v[k] as number) : 0;
  return {
    input_tokens: n("input_tokens"),
    output_tokens: n("output_tokens"),
    total_tokens: n("total_tokens"),
    llm_call_count: n("llm_call_count"),
  };
}

/** Registers the route. */
export function registerTokenUsageRoute(app: FastifyInstance, ctx: LangGraphContext): void {
  app.get<{ Params: { thread_id: string } }>(
    "/threads/:thread_id/token-usage",
    {
      schema: {
        summary: "The thread's token usage",
        description:
          "Totals over all the thread's model calls and the counts of its latest run (null before one with usage). Zero for a thread that never ran.",
        tags: ["threads"],
        params: threadParamsSchema,
        response: { 200: tokenUsageResponseSchema },
        "x-errors": [404],
      },
    },
    async (request) => {
      const threadId = request.params.thread_id;
      const thread = await threadOrThrow(ctx, request, threadId);
      const state = await ctx.state.state(threadId, thread.metadata, { subgraphs: false });
      const values = (state?.values ?? {}) as Record<string, unknown>;
      const total = usageOf(values["token_usage"]);
      return {
        thread_id: threadId,
        total_input_tokens: total?.input_tokens ?? 0,
        total_output_tokens: total?.output_tokens ?? 0,
        total_tokens: total?.total_tokens ?? 0,
        llm_call_count: total?.llm_call_count ?? 0,
        last_run: usageOf(values["run_token_usage"]) ?? null,
      };
    },
  );
}
