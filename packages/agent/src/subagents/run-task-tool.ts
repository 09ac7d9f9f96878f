/**
 * The lead's `task` tool for an agent compiled once: the subagent inherits the
 * model and tools of the run that delegates (read from the tool call's
 * config), not those of whichever run compiled the agent, and runs with the
 * runtime part of the lead's chain (see `subagent-chain.ts`) on the lead's
 * thread: its run config carries the lead's thread and user and a run id of
 * its own (`<lead run id>:task:<tool call id>`), so its tools and middleware
 * reach the thread's sandbox session under a lease of their own, ended when
 * the task ends however it ends.
 *
 * Each call gets its own `SubagentExecutor`: the per-response cap of
 * `SubagentLimitMiddleware` already bounds a run's concurrent tasks (today's
 * per-run executor never had to queue), and executors shared across runs would
 * make one run's tasks wait for another's.
 */
import {
  SubagentExecutor,
  createTaskTool,
  selectSubagentTools,
  type SubagentConfig,
  type SubagentMiddlewareFactory,
  type SubagentRegistry,
  type TaskExecutor,
} from "@deerflow/subagents";
import type { StructuredToolInterface } from "@langchain/core/tools";
import type { AgentMiddleware } from "langchain";
import type { Logger } from "../logger.js";
import type { RunModels } from "../models/run-models.js";
import { readRunOptions, type RunOptions } from "../run/run-options.js";
import type { ThreadSandboxes } from "../sandbox/thread-sandboxes.js";
import { restrictChainTools } from "./restrict-middleware-tools.js";
import { MCP_TOOLS_ENTRY } from "./subagent-chain.js";

/** Options of {@link createRunTaskTool}. */
export interface RunTaskToolOptions {
  readonly registry: SubagentRegistry;
  /** The agent's model resolution: the run's model is the subagents' `inherit`. */
  readonly models: RunModels;
  /** The tools subagents choose from for a run (the lead's, without lead-only ones). */
  readonly parentTools: (run: RunOptions) => readonly StructuredToolInterface[];
  readonly logger: Logger;
  /** The subagents' middleware, shared by every task (`buildLeadChain(parts, SUBAGENT_CHAIN)`). Default none. */
  readonly middleware?: readonly AgentMiddleware[];
  /** The agent's sandbox sessions: a task's lease on its thread's session ends with the task. */
  readonly sessions?: ThreadSandboxes;
  /**
   * Tools never given to subagents (those that wait for a human approval a subagent cannot ask for),
   * whether the lead has them or the MCP middleware would add them per model call.
   */
  readonly withheldTools?: readonly string[];
}

/**
 * The run id of a task's subagent run: its own lease key on the thread's sandbox.
 *
 * @param leadRunId - the delegating run's `run_id`, if any
 * @param taskId - the `task` tool call's id
 * @returns `<lead run id>:task:<task id>` (`task:<task id>` without a lead run id)
 */
function subagentRunId(leadRunId: string | undefined, taskId: string): string {
  return leadRunId === undefined ? `task:${taskId}` : `${leadRunId}:task:${taskId}`;
}

/**
 * A task's view of the subagents' middleware: the MCP tools it adds per model call pass the same
 * filters as the lead's tools (`selectSubagentTools`: the subagent's allowlist and deny-list, never
 * `task`) and the withheld names.
 *
 * @param middleware - the subagents' middleware
 * @param withheld - names never given to subagents
 * @returns the per-task factory
 */
function perTaskMiddleware(
  middleware: readonly AgentMiddleware[],
  withheld: ReadonlySet<string>,
): SubagentMiddlewareFactory {
  return ({ subagent }) => {
    const allows = (name: string): boolean => !withheld.has(name) && selectsTool(subagent, name);
    return restrictChainTools(middleware, MCP_TOOLS_ENTRY, allows);
  };
}

/** Whether `selectSubagentTools` (the one definition of a subagent's tool filter) keeps a tool of this name. */
const selectsTool = (subagent: SubagentConfig, name: string): boolean =>
  selectSubagentTools(subagent, [{ name } as StructuredToolInterface]).length === 1;

/**
 * Creates the `task` tool.
 *
 * @param options - registry, models, parent tools, logger, subagent middleware, sandbox sessions
 * @returns the tool
 */
export function createRunTaskTool(options: RunTaskToolOptions) {
  const { registry, models, logger, sessions } = options;
  const withheld = new Set(options.withheldTools ?? []);
  const middleware = perTaskMiddleware(options.middleware ?? [], withheld);
  const executor: TaskExecutor = {
    execute: async (task, parent, callOptions) => {
      try {
        return await new SubagentExecutor({
          registry,
          resolveModel: (name) => (models.has(name) ? models.get(name) : undefined),
          logger,
          middleware,
        }).execute(task, parent, callOptions);
      } finally {
        const scope = parent.scope;
        // A task stopped by an error, a timeout or its signal never reaches SandboxMiddleware's afterAgent.
        if (sessions !== undefined && scope?.threadId !== undefined) {
          await sessions.close({
            configurable: { thread_id: scope.threadId, user_id: scope.userId, run_id: scope.runId },
          });
        }
      }
    },
  };
  return createTaskTool({
    executor,
    registry,
    getParent: (config) => {
      const run = readRunOptions(config);
      const tools = options.parentTools(run).filter((t) => !withheld.has(t.name));
      const taskId = config?.toolCall?.id ?? "";
      return {
        model: models.current(run),
        tools,
        scope: {
          ...(run.threadId === undefined ? {} : { threadId: run.threadId }),
          ...(run.userId === undefined ? {} : { userId: run.userId }),
          ...(run.userRole === undefined ? {} : { userRole: run.userRole }),
          runId: subagentRunId(run.runId, taskId),
        },
      };
    },
    logger,
  });
}
