/**
 * Human approval — LangChain's prebuilt `humanInTheLoopMiddleware`, configured
 * from `guardrails.require_approval`: when the model calls one of the listed
 * tools, the run stops on a LangGraph interrupt whose value is
 * `{ actionRequests: [{ name, args, description }], reviewConfigs: [{ actionName, allowedDecisions }] }`;
 * it is resumed with `Command({ resume: { decisions: [...] } })`, one decision
 * per action, in order: `{ type: "approve" }`, `{ type: "edit", editedAction: { name, args } }`
 * or `{ type: "reject", message? }` (a rejected call becomes an error result and
 * the model is asked again). Through the LangGraph SDK:
 * `client.runs.stream(thread, assistant, { command: { resume: { decisions } } })`.
 *
 * Config keys: `guardrails.require_approval` (tool names; default none, i.e. off).
 *
 * Deliberate differences: DeerFlow's capabilities notes have no approval key
 * (its newer code marks tools for approval per tool); ours sits with the other
 * tool-call policy under `guardrails:`. The prebuilt middleware also reads its
 * options from the run's context, which would let a request switch approvals
 * off (`context.interruptOn`); this wrapper hands it a context without them,
 * so only the configuration decides.
 */
import { humanInTheLoopMiddleware, createMiddleware, type AgentMiddleware } from "langchain";

/** The decisions a reviewer may take. */
export type ApprovalDecisionType = "approve" | "edit" | "reject";

/** Options of {@link createHumanApprovalMiddleware}. */
export interface HumanApprovalOptions {
  /** Tools whose calls wait for a human decision (`guardrails.require_approval`). */
  readonly tools: readonly string[];
  /** What the reviewer may decide. Default all three. */
  readonly allowedDecisions?: readonly ApprovalDecisionType[];
  /** First line of each action's description. Default LangChain's `Tool execution requires approval`. */
  readonly descriptionPrefix?: string;
}

/** The interrupt value of an approval stop (LangChain's `HITLRequest`). */
export interface ApprovalRequest {
  readonly actionRequests: readonly {
    readonly name: string;
    readonly args: Record<string, unknown>;
    readonly description?: string;
  }[];
  readonly reviewConfigs: readonly {
    readonly actionName: string;
    readonly allowedDecisions: readonly ApprovalDecisionType[];
  }[];
}

/** LangChain's `interruptOn` keys its own middleware would read from a run's context. */
const HITL_CONTEXT_KEYS = new Set(["interruptOn", "descriptionPrefix"]);

/**
 * Creates the human-approval middleware.
 *
 * @param options - the tools, the allowed decisions, the description prefix
 * @returns an `afterModel` middleware that interrupts before the listed tools run
 * @example
 * ```ts
 * createHumanApprovalMiddleware({ tools: ["bash", "write_file"] });
 * ```
 */
export function createHumanApprovalMiddleware(options: HumanApprovalOptions): AgentMiddleware {
  const allowedDecisions = [...(options.allowedDecisions ?? ["approve", "edit", "reject"])];
  const config = {
    interruptOn: Object.fromEntries(options.tools.map((tool) => [tool, { allowedDecisions }])),
    ...(options.descriptionPrefix === undefined ? {} : { descriptionPrefix: options.descriptionPrefix }),
  };
  // Its options type is inferred from zod, which this package does not depend on (it types as never).
  const inner = humanInTheLoopMiddleware(config as never);
  const afterModel = inner.afterModel as { hook: (state: unknown, runtime: unknown) => unknown };
  return createMiddleware({
    name: "HumanApprovalMiddleware",
    afterModel: {
      canJumpTo: ["model"],
      hook: (state, runtime) => {
        const context = runtime.context;
        const trusted =
          typeof context === "object" && context !== null
            ? Object.fromEntries(Object.entries(context).filter(([key]) => !HITL_CONTEXT_KEYS.has(key)))
            : context;
        return afterModel.hook(state, { ...runtime, context: trusted }) as ReturnType<typeof afterModel.hook> &
          Promise<undefined>;
      },
    },
  });
}
