/**
 * One `wrapModelCall` layer for a run of middlewares' model-call wrappers.
 *
 * LangChain puts a layer around every middleware's `wrapModelCall`: a frozen
 * runtime, the middleware's state view (a partial zod parse of its state
 * schema), a check of the request's tools against the agent's, the system
 * prompt normalised, the `Command`s it returns collected. For the lead chain's
 * fourteen wrappers that layer costs more than the wrappers' own work, on
 * every model call. This composes consecutive wrappers that need none of it
 * (no state schema, no context schema) into one layer of two middlewares, and
 * keeps what they rely on:
 *
 * - order: outer → inner as in the list, so after-work still unwinds inner-first;
 * - the system prompt: a wrapper that sets `systemPrompt` hands the next one a
 *   matching `systemMessage` (and the other way round), as LangChain does;
 * - `Command`s: a wrapper that returns one gives the wrappers outside it the
 *   answer inside it (LangChain's "last AI message"), and the collected
 *   updates leave the layer as one `Command` from its outer middleware, while
 *   the inner one returns the final answer (which LangChain then writes);
 * - everything else of each middleware (tools, `wrapToolCall`, other hooks)
 *   stays where it was in the list, under its own name.
 *
 * The agent still checks the final request's tools and wraps a thrown error
 * in its `MiddlewareError` (named after the layer rather than the middleware).
 */
import { AIMessage, SystemMessage } from "@langchain/core/messages";
import { Command, isCommand } from "@langchain/langgraph";
import { createMiddleware, type AgentMiddleware } from "langchain";
import { AgentError } from "../errors.js";

type WrapModelCall = NonNullable<AgentMiddleware["wrapModelCall"]>;
type Request = Parameters<WrapModelCall>[0];
type Handler = Parameters<WrapModelCall>[1];
type Response = Awaited<ReturnType<WrapModelCall>>;

/** Name of the layer's outer middleware (it returns the collected updates). */
export const MODEL_CALL_LAYER_NAME = "ModelCallLayer";

/** What the wrappers of one model call returned as commands, and the last answer seen. */
interface CallBag {
  readonly commands: Command[];
  lastAnswer: AIMessage | undefined;
}

const BAG = Symbol("deerflow.modelCallBag");
type BaggedRequest = Request & { [BAG]?: CallBag };

const canFuse = (m: AgentMiddleware): boolean =>
  m.wrapModelCall !== undefined && m.stateSchema === undefined && m.contextSchema === undefined;

/**
 * The system message of a prompt set as text (LangChain's form: one text block).
 * The run prompt middleware sets the same prompt on every call of a run (and
 * mostly of every run), so the last one is kept: no wrapper changes a message
 * in place (they make new ones), and LangChain copies the one it sends.
 */
function systemMessages(): (text: string) => SystemMessage {
  let last: SystemMessage | undefined;
  let lastText: string | undefined;
  return (text) => {
    if (last === undefined || text !== lastText) {
      last = new SystemMessage({ content: [{ type: "text", text }] });
      lastText = text;
    }
    return last;
  };
}

/** The request with `systemPrompt` and `systemMessage` agreeing, after a wrapper changed one of them. */
function withSystemInSync(before: Request, after: Request, messageOf: (text: string) => SystemMessage): Request {
  const promptChanged = after.systemPrompt !== before.systemPrompt;
  const messageChanged = after.systemMessage !== before.systemMessage;
  if (promptChanged && messageChanged) {
    throw new AgentError("CONFIG_INVALID", "Cannot change both systemPrompt and systemMessage in the same request.");
  }
  if (promptChanged) {
    // A one-text-block message's `text` is that text: no need for the getter's block conversion.
    const text = after.systemPrompt ?? "";
    return { ...after, systemMessage: messageOf(text), systemPrompt: text };
  }
  if (messageChanged) return { ...after, systemPrompt: after.systemMessage.text };
  return after;
}

/** Composes wrappers (outer first) over the layer's handler. */
function compose(wrappers: readonly WrapModelCall[], bagOf: (request: Request) => CallBag): WrapModelCall {
  const messageOf = systemMessages();
  return async (request, handler) => {
    const bag = bagOf(request);
    const call = (index: number, req: Request): Promise<Response> => {
      const wrapper = wrappers[index];
      if (wrapper === undefined) {
        // LangChain compares the final request with the prompt it started the layer with: hand it
        // the system message only, so a changed prompt reads as one change.
        const changed = req.systemMessage !== request.systemMessage;
        return Promise.resolve(handler(changed ? { ...req, systemPrompt: request.systemPrompt } : req)).then(
          (answer) => {
            if (AIMessage.isInstance(answer)) bag.lastAnswer = answer;
            return answer;
          },
        );
      }
      const next: Handler = async (inner) => {
        const result = await call(index + 1, withSystemInSync(req, inner as Request, messageOf));
        if (isCommand(result)) {
          if (bag.lastAnswer === undefined) return result as unknown as AIMessage;
          return bag.lastAnswer;
        }
        return result;
      };
      return Promise.resolve(wrapper(req, next)).then((result) => {
        if (AIMessage.isInstance(result)) bag.lastAnswer = result;
        else if (isCommand(result) && !bag.commands.includes(result)) bag.commands.push(result);
        return result;
      });
    };
    const response = await call(0, request);
    return isCommand(response) ? (bag.lastAnswer ?? response) : response;
  };
}

/** One `Command` with the updates of several (they carry updates only). */
function mergeCommands(commands: readonly Command[]): Command {
  const update: [string, unknown][] = [];
  for (const command of commands) {
    if (command.goto !== undefined && (!Array.isArray(command.goto) || command.goto.length > 0)) {
      throw new AgentError("CONFIG_INVALID", "A fused model-call wrapper returned a Command with goto");
    }
    update.push(...(command._updateAsTuples() as [string, unknown][]));
  }
  return new Command({ update });
}

/**
 * Fuses runs of consecutive model-call wrappers (consecutive among the
 * middlewares that have one) that need no per-wrapper layer into one layer
 * (two middlewares, at the place of the run's first). Each middleware's other
 * hooks (tools, `wrapToolCall`, before/after hooks) stay at its own place
 * under its own name; a chain without two such wrappers in a row is returned
 * as is.
 *
 * @param middlewares - a chain, in order
 * @returns the same chain with its fusable model-call wrappers in layers
 */
export function fuseModelCallWrappers(middlewares: readonly AgentMiddleware[]): AgentMiddleware[] {
  // Runs over the model-call wrappers, in order.
  const runs: AgentMiddleware[][] = [];
  let run: AgentMiddleware[] = [];
  for (const m of middlewares) {
    if (m.wrapModelCall === undefined) continue;
    if (canFuse(m)) run.push(m);
    else {
      runs.push(run);
      run = [];
    }
  }
  runs.push(run);
  const fusedRuns = runs.filter((r) => r.length >= 2);
  if (fusedRuns.length === 0) return [...middlewares];
  const layerOf = new Map<AgentMiddleware, { first: boolean; layer: AgentMiddleware[] }>();
  fusedRuns.forEach((members, i) => {
    const name = `${MODEL_CALL_LAYER_NAME}${i === 0 ? "" : String(i + 1)}`;
    const layer = modelCallLayer(name, members);
    members.forEach((m, j) => layerOf.set(m, { first: j === 0, layer }));
  });
  const out: AgentMiddleware[] = [];
  for (const m of middlewares) {
    const fused = layerOf.get(m);
    if (fused === undefined) {
      out.push(m);
      continue;
    }
    if (fused.first) out.push(...fused.layer);
    const { wrapModelCall: _inLayer, ...rest } = m;
    if (Object.entries(rest).some(([k, v]) => k !== "name" && v !== undefined)) out.push(rest as AgentMiddleware);
  }
  return out;
}

/** The two middlewares of a layer: the outer returns the collected updates, the inner the final answer. */
function modelCallLayer(name: string, members: readonly AgentMiddleware[]): AgentMiddleware[] {
  const wrappers = members.map((m) => m.wrapModelCall as WrapModelCall);
  const bagOf = (request: Request): CallBag =>
    (request as BaggedRequest)[BAG] ?? { commands: [], lastAnswer: undefined };
  const carrier = createMiddleware({
    name,
    wrapModelCall: async (request, handler) => {
      const bag: CallBag = { commands: [], lastAnswer: undefined };
      const answer = await handler({ ...request, [BAG]: bag } as BaggedRequest);
      return bag.commands.length === 0 ? answer : mergeCommands(bag.commands);
    },
  });
  const body = createMiddleware({ name: `${name}.wrappers`, wrapModelCall: compose(wrappers, bagOf) });
  return [carrier, body];
}
