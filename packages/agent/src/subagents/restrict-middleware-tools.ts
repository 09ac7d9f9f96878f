/**
 * A view of a tool-offering middleware (the MCP tools) that lets only some of
 * its tools through. Subagents need it: the tools a subagent gets at compile
 * time are filtered (`selectSubagentTools`, the approval-gated ones withheld by
 * `createRunTaskTool`), but a middleware that adds tools per model call and
 * runs their calls itself would otherwise bypass both filters.
 *
 * Both hooks are restricted, not only the offer: a model may name a tool it was
 * never offered (from a lead's message, an old catalog, `tool_search` output),
 * and that call must not run either.
 *
 * A chain built by `buildLeadChain` has its model-call wrappers fused into one
 * layer (`fuseModelCallWrappers`), so the middleware left under the MCP name
 * keeps only its `wrapToolCall`: {@link restrictChainTools} then adds an offer
 * filter inside that layer.
 */
import { ToolMessage } from "@langchain/core/messages";
import { createMiddleware, type AgentMiddleware } from "langchain";

/** Which of the middleware's tool names may pass. */
export type ToolNamePredicate = (name: string) => boolean;

type WrapModelCall = NonNullable<AgentMiddleware["wrapModelCall"]>;
type WrapToolCall = NonNullable<AgentMiddleware["wrapToolCall"]>;

const nameOf = (tool: unknown): string | undefined => (tool as { name?: unknown }).name as string | undefined;

/**
 * Restricts the tools a middleware offers and runs.
 *
 * @param inner - the middleware (its name and other hooks are kept)
 * @param allows - whether a tool the middleware adds may be offered and run; the request's own tools are never touched
 * @returns the restricted middleware, under the same name
 */
export function restrictMiddlewareTools(inner: AgentMiddleware, allows: ToolNamePredicate): AgentMiddleware {
  const innerModel = inner.wrapModelCall as WrapModelCall | undefined;
  const innerTool = inner.wrapToolCall as WrapToolCall | undefined;
  const wrapModelCall: WrapModelCall | undefined =
    innerModel === undefined
      ? undefined
      : (request, handler) => {
          const own = new Set(request.tools);
          return innerModel(request, (inside) =>
            handler({
              ...inside,
              tools: inside.tools.filter((t) => own.has(t) || allows(nameOf(t) ?? "")),
            }),
          );
        };
  const wrapToolCall: WrapToolCall | undefined =
    innerTool === undefined
      ? undefined
      : (request, handler) => {
          // A tool the agent itself has (request.tool set) is not the middleware's to refuse.
          if (request.tool !== undefined) return innerTool(request, handler);
          const name = request.toolCall.name;
          if (allows(name)) return innerTool(request, handler);
          return new ToolMessage({
            content: `Error: Tool '${name}' is not available to this agent.`,
            tool_call_id: request.toolCall.id ?? "",
            name,
            status: "error",
          });
        };
  return { ...inner, wrapModelCall, wrapToolCall } as AgentMiddleware;
}

/**
 * Restricts the tools a middleware of a built chain offers and runs, wherever its model-call wrapper went.
 *
 * @param chain - a built chain (fused or not)
 * @param name - the name of the middleware that adds tools per model call
 * @param allows - whether one of its tools may be offered and run
 * @returns the chain with that middleware restricted; when its model-call wrapper was fused into an outer
 *   layer, followed by a filter (inside that layer) that drops what `allows` refuses, except the tools
 *   the chain's middlewares register at compile time
 */
export function restrictChainTools(
  chain: readonly AgentMiddleware[],
  name: string,
  allows: ToolNamePredicate,
): AgentMiddleware[] {
  const registered = new Set(chain.flatMap((m) => (m.tools ?? []).map((t) => nameOf(t) ?? "")));
  const out: AgentMiddleware[] = [];
  for (const m of chain) {
    if (m.name !== name) {
      out.push(m);
      continue;
    }
    out.push(restrictMiddlewareTools(m, allows));
    if (m.wrapModelCall === undefined)
      out.push(
        createMiddleware({
          name: `${name}.offerFilter`,
          wrapModelCall: (request, handler) =>
            handler({
              ...request,
              tools: request.tools.filter((t) => {
                const n = nameOf(t) ?? "";
                return registered.has(n) || allows(n);
              }),
            }),
        }),
      );
  }
  return out;
}
