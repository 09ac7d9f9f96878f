/**
 * One `wrapModelCall` layer for a run of middlewares' model-call wrappers.
 *
 * LangChain puts a layer around every middleware's `wrapModelCall`: a frozen
 * runtime, the middleware's state view (a partial zod parse of its state
 * schema), a check of the request's tools against the agent's, the system
 * prompt normalised, the `Command`s it returns collected. For the lead chain's
 * fourteen wrappers that layer costs more than the wrappers' own work, on
 * every model call. This composes consecutive wrappers that need none of it
 * (no state schema, no context schema) into one layer (one middleware), and
 * keeps what they rely on:
 *
 * - order: outer → inner as in the list, so after-work still unwinds inner-first;
 * - the system prompt: a wrapper that sets `systemPrompt` hands the next one a
 *   matching `systemMessage` (and the other way round), as LangChain does;
 * - `Command`s: a wrapper that returns one gives the wrappers outside it the
 *   answer inside it (LangChain's "last AI message"), and the collected
 *   updates leave the layer as one `Command`. LangChain then writes the
 *   model's own answer itself; when the wrappers replaced it (a trimmed, capped
 *   or error answer), the `Command` also writes their answer under the
 *   model's answer's id, so the state keeps one message: theirs (the model
 *   node's `updates` event then lists the two writes, the model's first);
 * - everything else of each middleware (tools, `wrapToolCall`, other hooks)
 *   stays where it was in the list, under its own name.
 *
 * The agent still checks the final request's tools and wraps a thrown error
 * in its `MiddlewareError` (named after the layer rather than the middleware).
 */
import { randomUUID } from "node:crypto";
import { AIMessage, SystemMessage } from "@langchain/core/messages";
import { Command, isCommand } from "@langchain/langgraph";
import { createMiddleware, type AgentMiddleware } from "langchain";
import { AgentError } from "../errors.js";

type WrapModelCall = NonNullable<AgentMiddleware["wrapModelCall"]>;
type Request = Parameters<WrapModelCall>[0];
type Handler = Parameters<WrapModelCall>[1];
type Response = Awaited<ReturnType<WrapModelCall>>;

/** Name of the layer's middleware (the first layer's; later ones add 2, 3, ...). */
export const MODEL_CALL_LAYER_NAME = "ModelCallLayer";

/** What the wrappers of one model call returned as commands, and the answers seen. */
interface CallBag {
  readonly commands: Command[];
  /** The answer as the wrappers left it so far (LangChain's "last AI message"). */
  lastAnswer: AIMessage | undefined;
  /** The model's last answer (the one LangChain writes when the layer returns a `Command`). */
  modelAnswer: AIMessage | undefined;
}

const canFuse = (m: AgentMiddleware): boolean =>
  m.wrapModelCall !== undefined && m.stateSchema === undefined && m.contextSchema === undefined;

/**
 * The system message of a prompt set as text, with the text as its content: its
 * `text` is then the string itself, where a text block would be converted on every
 * read (LangChain reads it twice per call; the model gets the same system text).
 * The run prompt middleware sets the same prompt on every call of a run (and
 * mostly of every run), so the last one is kept: no wrapper changes a message
 * in place (they make new ones), and LangChain copies the one it sends.
 */
function systemMessages(): (text: string) => SystemMessage {
  let last: SystemMessage | undefined;
  let lastText: string | undefined;
  return (text) => {
    if (last === undefined || text !== lastText) {
      last = new SystemMessage({ content: text });
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
    const text = after.systemPrompt ?? "";
    return { ...after, systemMessage: messageOf(text), systemPrompt: text };
  }
  if (messageChanged) return { ...after, systemPrompt: after.systemMessage.text };
  return after;
}

/** Composes wrappers (outer first) over the layer's handler. */
function compose(
  wrappers: readonly WrapModelCall[],
): (request: Request, handler: Handler, bag: CallBag) => Promise<Response> {
  const messageOf = systemMessages();
  return async (request, handler, bag) => {
    const call = (index: number, req: Request): Promise<Response> => {
      const wrapper = wrappers[index];
      if (wrapper === undefined) {
        // LangChain compares the final request with the prompt it started the layer with: hand it
        // the system message only, so a changed prompt reads as one change.
        const changed = req.systemMessage !== request.systemMessage;
        return Promise.resolve(handler(changed ? { ...req, systemPrompt: request.systemPrompt } : req)).then(
          (answer) => {
            if (AIMessage.isInstance(answer)) {
              bag.lastAnswer = answer;
              bag.modelAnswer = answer;
            }
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
    return call(0, request);
  };
}

/** The updates of several `Command`s, in order (they carry updates only). */
function mergedUpdates(commands: readonly Command[]): [string, unknown][] {
  const update: [string, unknown][] = [];
  for (const command of commands) {
    if (command.goto !== undefined && (!Array.isArray(command.goto) || command.goto.length > 0)) {
      throw new AgentError("CONFIG_INVALID", "A fused model-call wrapper returned a Command with goto");
    }
    update.push(...(command._updateAsTuples() as [string, unknown][]));
  }
  return update;
}

/**
 * The wrappers' answer to write over the model's own (which LangChain writes
 * first): under the model's answer's id, so the messages reducer replaces it,
 * with the agent's name LangChain would have given it.
 */
function replacing(answer: AIMessage, modelAnswer: AIMessage, agentName: string | undefined): AIMessage {
  if (modelAnswer.id === undefined) {
    // The reducer would give the two different ids: the model's answer gets its id now.
    const id = randomUUID();
    modelAnswer.id = id;
    modelAnswer.lc_kwargs.id = id;
  }
  const name = agentName ?? answer.name;
  if (answer.id === modelAnswer.id && answer.name === name) return answer;
  return new AIMessage({
    content: answer.content,
    additional_kwargs: answer.additional_kwargs,
    response_metadata: answer.response_metadata,
    tool_calls: answer.tool_calls ?? [],
    invalid_tool_calls: answer.invalid_tool_calls ?? [],
    ...(answer.usage_metadata === undefined ? {} : { usage_metadata: answer.usage_metadata }),
    id: modelAnswer.id,
    ...(name === undefined ? {} : { name }),
  });
}

/** Options of {@link fuseModelCallWrappers}. */
export interface FuseModelCallWrappersOptions {
  /**
   * The agent's name (`createAgent({ name })`), which LangChain gives the answers it
   * writes: an answer the wrappers replaced gets it too. Unset: the replacing answer
   * keeps its own name.
   */
  readonly agentName?: string;
}

/**
 * Fuses runs of consecutive model-call wrappers (consecutive among the
 * middlewares that have one) that need no per-wrapper layer into one layer
 * (one middleware, at the place of the run's first). Each middleware's other
 * hooks (tools, `wrapToolCall`, before/after hooks) stay at its own place
 * under its own name; a chain without two such wrappers in a row is returned
 * as is.
 *
 * @param middlewares - a chain, in order
 * @param options - the agent's name
 * @returns the same chain with its fusable model-call wrappers in layers
 */
export function fuseModelCallWrappers(
  middlewares: readonly AgentMiddleware[],
  options: FuseModelCallWrappersOptions = {},
): AgentMiddleware[] {
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
  const layerOf = new Map<AgentMiddleware, { first: boolean; layer: AgentMiddleware }>();
  fusedRuns.forEach((members, i) => {
    const name = `${MODEL_CALL_LAYER_NAME}${i === 0 ? "" : String(i + 1)}`;
    const layer = modelCallLayer(name, members, options.agentName);
    members.forEach((m, j) => layerOf.set(m, { first: j === 0, layer }));
  });
  const out: AgentMiddleware[] = [];
  for (const m of middlewares) {
    const fused = layerOf.get(m);
    if (fused === undefined) {
      out.push(m);
      continue;
    }
    if (fused.first) out.push(fused.layer);
    const { wrapModelCall: _inLayer, ...rest } = m;
    if (Object.entries(rest).some(([k, v]) => k !== "name" && v !== undefined)) out.push(rest as AgentMiddleware);
  }
  return out;
}

/** The layer: the wrappers in order, their updates returned as one `Command`. */
function modelCallLayer(
  name: string,
  members: readonly AgentMiddleware[],
  agentName: string | undefined,
): AgentMiddleware {
  const composed = compose(members.map((m) => m.wrapModelCall as WrapModelCall));
  return createMiddleware({
    name,
    wrapModelCall: async (request, handler) => {
      const bag: CallBag = { commands: [], lastAnswer: undefined, modelAnswer: undefined };
      const response = await composed(request, handler, bag);
      const answer = isCommand(response) ? bag.lastAnswer : response;
      if (bag.commands.length === 0) return answer ?? response;
      const update = mergedUpdates(bag.commands);
      // LangChain writes the model's answer itself; the wrappers' own one (or the only one, when the model failed) goes with the updates.
      if (answer !== undefined && answer !== bag.modelAnswer)
        update.unshift([
          "messages",
          [bag.modelAnswer === undefined ? answer : replacing(answer, bag.modelAnswer, agentName)],
        ]);
      return new Command({ update });
    },
  });
}
