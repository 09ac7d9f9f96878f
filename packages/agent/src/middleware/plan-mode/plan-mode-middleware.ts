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
 * Config keys: per run `is_plan_mode` (false); options `systemPrompt`, `toolDescription`.
 */
import { ToolMessage } from "@langchain/core/messages";
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
}

const inPlanMode = (runtime: unknown): boolean =>
  readRunOptions(runtime as Parameters<typeof readRunOptions>[0]).isPlanMode === true;
const toolName = (tool: unknown): unknown => (tool as { name?: unknown } | null)?.name;

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
  // The prebuilt middleware with its hooks made per run (spread keeps its brand, zod state and tool).
  const planMode: AgentMiddleware = {
    ...todo,
    name: "PlanModeMiddleware",
    wrapModelCall: async (request, handler) => {
      if (inPlanMode(request.runtime) && wrapTodo !== undefined) return wrapTodo(request, handler);
      const tools = request.tools.filter((t) => toolName(t) !== WRITE_TODOS_TOOL_NAME);
      return handler(tools.length === request.tools.length ? request : { ...request, tools });
    },
    wrapToolCall: async (request, handler) => {
      if (request.toolCall.name !== WRITE_TODOS_TOOL_NAME || inPlanMode(request.runtime)) return handler(request);
      return new ToolMessage({
        content: toolNotOfferedText(WRITE_TODOS_TOOL_NAME),
        tool_call_id: request.toolCall.id ?? "",
        name: WRITE_TODOS_TOOL_NAME,
        status: "error",
      });
    },
  };
  return planMode;
}
