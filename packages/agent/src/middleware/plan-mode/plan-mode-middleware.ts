/**
 * Plan mode — DeerFlow's `TodoMiddleware` (§3 row 19), on LangChain's
 * `todoListMiddleware`: a run with `is_plan_mode: true` is offered
 * `write_todos` (with LangChain's tool description and system-prompt section)
 * and its list is kept in the `todos` state channel. The agent is compiled
 * once, so the tool is registered for every run; a run not in plan mode gets
 * neither the tool nor the prompt section, and a call to `write_todos` from it
 * is refused with an error result (as `RunToolsMiddleware` refuses tools a run
 * was not offered).
 *
 * Deliberate difference from DeerFlow: the tool description and prompt text
 * are LangChain's (`todoListMiddleware`), not DeerFlow's own wording, so the
 * prebuilt middleware is adapted rather than rewritten; both can be replaced
 * with `systemPrompt` / `toolDescription`.
 *
 * Where its hooks live: `wrapModelCall` (the tool and prompt, per run) and
 * `wrapToolCall`; the prebuilt middleware's `afterModel` check (more than one
 * `write_todos` call in one answer is an error) runs in `wrapToolCall`
 * instead, so plan mode adds no graph node every model call passes through.
 * Each of the parallel calls gets LangChain's error text as its result, and
 * the model is asked again with them (the prebuilt's `afterModel` answered them
 * the same way, but then ended the run when nothing else was called).
 *
 * Config keys: per run `is_plan_mode` (false); options `systemPrompt`, `toolDescription`,
 * `declareState`.
 */
import { AIMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { StateSchema } from "@langchain/langgraph";
import { todoListMiddleware, type AgentMiddleware } from "langchain";
import { readRunOptions } from "../../run/run-options.js";
import { toolNotOfferedText } from "../run-tools.js";

/** Name of LangChain's todo tool. */
export const WRITE_TODOS_TOOL_NAME = "write_todos";

/** Options of {@link createPlanModeMiddleware} (passed to `todoListMiddleware`). */
export interface PlanModeMiddlewareOptions {
  /** Replaces the system-prompt section added in plan mode. */
  readonly systemPrompt?: string;
  /** Replaces the `write_todos` tool description. */
  readonly toolDescription?: string;
  /**
   * Carry the `todos` channel as the middleware's state schema. Default true; false
   * when the agent's state schema declares it ({@link PlanModeState}), so langchain
   * does not parse it on every model call.
   */
  readonly declareState?: boolean;
}

/** LangChain's text for parallel `write_todos` calls (its `todoListMiddleware`'s `afterModel`). */
export const PARALLEL_WRITE_TODOS_TEXT =
  "Error: The `write_todos` tool should never be called multiple times in parallel. Please call it only once per model invocation to update the todo list.";

/** The `todos` channel of LangChain's `todoListMiddleware` (its own schema), for an agent's `stateSchema`. */
export const PlanModeState = new StateSchema({
  todos: (todoListMiddleware().stateSchema as unknown as { shape: { todos: never } }).shape.todos,
});

const inPlanMode = (runtime: unknown): boolean =>
  readRunOptions(runtime as Parameters<typeof readRunOptions>[0]).isPlanMode === true;
const toolName = (tool: unknown): unknown => (tool as { name?: unknown } | null)?.name;

/** How many `write_todos` calls the AI message carrying a call makes. */
function writeTodosCallsBeside(messages: readonly BaseMessage[], toolCallId: string | undefined): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message === undefined || !AIMessage.isInstance(message)) continue;
    const calls = message.tool_calls ?? [];
    if (!calls.some((c) => c.id === toolCallId)) continue;
    return calls.filter((c) => c.name === WRITE_TODOS_TOOL_NAME).length;
  }
  return 0;
}

/**
 * Creates the plan-mode middleware.
 *
 * @param options - replacements for LangChain's texts
 * @returns a middleware with the `write_todos` tool and the `todos` state channel, active per run
 */
export function createPlanModeMiddleware(options: PlanModeMiddlewareOptions = {}): AgentMiddleware {
  // Widened: its zod-typed tool does not fit AgentMiddleware's tool union (a typing artefact; langchain accepts it at runtime).
  const todo = todoListMiddleware({
    ...(options.systemPrompt === undefined ? {} : { systemPrompt: options.systemPrompt }),
    ...(options.toolDescription === undefined ? {} : { toolDescription: options.toolDescription }),
  }) as unknown as AgentMiddleware;
  const wrapTodo = todo.wrapModelCall;
  // The prebuilt middleware with its hooks made per run (spread keeps its brand, zod state and tool);
  // its afterModel check moves into wrapToolCall.
  const { afterModel: _parallelCheck, stateSchema, ...prebuilt } = todo;
  const planMode: AgentMiddleware = {
    ...prebuilt,
    ...(options.declareState === false ? {} : { stateSchema }),
    name: "PlanModeMiddleware",
    wrapModelCall: async (request, handler) => {
      if (inPlanMode(request.runtime) && wrapTodo !== undefined) return wrapTodo(request, handler);
      const tools = request.tools.filter((t) => toolName(t) !== WRITE_TODOS_TOOL_NAME);
      return handler(tools.length === request.tools.length ? request : { ...request, tools });
    },
    wrapToolCall: async (request, handler) => {
      if (request.toolCall.name !== WRITE_TODOS_TOOL_NAME) return handler(request);
      const refusal = !inPlanMode(request.runtime)
        ? toolNotOfferedText(WRITE_TODOS_TOOL_NAME)
        : writeTodosCallsBeside(request.state.messages, request.toolCall.id) > 1
          ? PARALLEL_WRITE_TODOS_TEXT
          : undefined;
      if (refusal === undefined) return handler(request);
      return new ToolMessage({
        content: refusal,
        tool_call_id: request.toolCall.id ?? "",
        name: WRITE_TODOS_TOOL_NAME,
        status: "error",
      });
    },
  };
  return planMode;
}
