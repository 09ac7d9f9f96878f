/**
 * The documented OpenAI Chat Completions wire format of a scripted reply: a
 * `chat.completion` object, or the `chat.completion.chunk` events of a
 * streamed one (role, reasoning deltas, content deltas, tool-call deltas with
 * arguments in two pieces, the `finish_reason` chunk, the usage chunk).
 */
import type { ScriptedReply } from "./script.js";

/** Identity of one completion. */
export interface CompletionIds {
  readonly id: string;
  readonly model: string;
  /** Default id of the n-th tool call. */
  readonly toolCallId: (index: number) => string;
}

type Json = Record<string, unknown>;

const pieces = (value: string | readonly string[] | undefined): readonly string[] =>
  value === undefined ? [] : typeof value === "string" ? (value === "" ? [] : value.split(/(?<= )/)) : value;

const joined = (value: string | readonly string[] | undefined): string | undefined =>
  value === undefined ? undefined : typeof value === "string" ? value : value.join("");

function toolCallsOf(reply: ScriptedReply, ids: CompletionIds): { id: string; name: string; args: string }[] {
  return (reply.toolCalls ?? []).map((c, i) => ({
    id: c.id ?? ids.toolCallId(i),
    name: c.name,
    args: JSON.stringify(c.args),
  }));
}

function finishReasonOf(reply: ScriptedReply): string {
  return reply.finishReason ?? ((reply.toolCalls?.length ?? 0) > 0 ? "tool_calls" : "stop");
}

function usageOf(reply: ScriptedReply): Json {
  const prompt = reply.usage?.promptTokens ?? 10;
  const completion = reply.usage?.completionTokens ?? 5;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/**
 * The non-streamed answer.
 *
 * @param reply - the scripted reply
 * @param ids - completion and tool-call ids, model
 * @returns a `chat.completion` object
 */
export function completionJson(reply: ScriptedReply, ids: CompletionIds): Json {
  const calls = toolCallsOf(reply, ids);
  const reasoning = joined(reply.reasoning);
  const message: Json = {
    role: "assistant",
    content: joined(reply.text) ?? (calls.length > 0 ? null : ""),
    ...(reasoning === undefined ? {} : { reasoning_content: reasoning }),
    ...(calls.length === 0
      ? {}
      : {
          tool_calls: calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.args } })),
        }),
  };
  return {
    id: ids.id,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: ids.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReasonOf(reply) }],
    usage: usageOf(reply),
  };
}

/**
 * The streamed answer.
 *
 * @param reply - the scripted reply
 * @param ids - completion and tool-call ids, model
 * @param includeUsage - `stream_options.include_usage` was set: end with a usage chunk
 * @returns the `chat.completion.chunk` objects, in order (without `[DONE]`)
 */
export function completionChunks(reply: ScriptedReply, ids: CompletionIds, includeUsage: boolean): Json[] {
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: Json, finish: string | null = null): Json => ({
    id: ids.id,
    object: "chat.completion.chunk",
    created,
    model: ids.model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
  const out: Json[] = [chunk({ role: "assistant", content: "" })];
  for (const piece of pieces(reply.reasoning)) out.push(chunk({ reasoning_content: piece }));
  for (const piece of pieces(reply.text)) out.push(chunk({ content: piece }));
  toolCallsOf(reply, ids).forEach((call, index) => {
    // The arguments arrive in two pieces, as real providers stream them.
    const half = Math.floor(call.args.length / 2);
    out.push(
      chunk({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] }),
    );
    out.push(chunk({ tool_calls: [{ index, function: { arguments: call.args.slice(0, half) } }] }));
    out.push(chunk({ tool_calls: [{ index, function: { arguments: call.args.slice(half) } }] }));
  });
  out.push(chunk({}, finishReasonOf(reply)));
  if (includeUsage)
    out.push({
      id: ids.id,
      object: "chat.completion.chunk",
      created,
      model: ids.model,
      choices: [],
      usage: usageOf(reply),
    });
  return out;
}
