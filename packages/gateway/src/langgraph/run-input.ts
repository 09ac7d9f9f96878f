/**
 * `RunCreate` (the LangGraph API's run body, already validated by its schema)
 * to the runtime's `CreateRunInput`, with the assistant's defaults merged in
 * and the caller's user id injected.
 */
import type { CreateRunInput, DisconnectMode, MultitaskStrategy, RunCommand, RunConfig } from "@deerflow/runtime";
import type { AssistantConfig, RegisteredAssistant } from "./assistant-registry.js";
import { RUN_USER_ID_KEY } from "./run-identity.js";
import type { RunCreateBody } from "./schemas.js";

type Nullable<T> = T | null | undefined;

/** Default of `on_disconnect`: the LangGraph JS server's (the run goes on). */
export const DEFAULT_ON_DISCONNECT: DisconnectMode = "continue";

/** Default of `multitask_strategy`: the LangGraph JS server's and DeerFlow's. */
export const DEFAULT_MULTITASK_STRATEGY: MultitaskStrategy = "reject";

function nodes(list: Nullable<string[]>): "*" | string[] | undefined {
  if (list === null || list === undefined) return undefined;
  return list.includes("*") ? "*" : list;
}

function mergeConfig(base: AssistantConfig | undefined, run: RunCreateBody["config"], userId: string): RunConfig {
  // The caller's id wins over both configs: it is what picks the run's sandbox and files.
  const configurable = { ...base?.configurable, ...run?.configurable, [RUN_USER_ID_KEY]: userId };
  const metadata = { ...base?.metadata, ...run?.metadata };
  const tags = run?.tags ?? base?.tags;
  const recursionLimit = run?.recursion_limit ?? base?.recursion_limit;
  const config: RunConfig = { configurable };
  if (Object.keys(metadata).length > 0) config.metadata = metadata;
  if (tags !== undefined) config.tags = [...tags];
  if (recursionLimit !== undefined) config.recursionLimit = recursionLimit;
  return config;
}

function command(body: RunCreateBody["command"]): RunCommand | undefined {
  if (body === null || body === undefined) return undefined;
  const out: RunCommand = {};
  if (body.resume !== undefined) out.resume = body.resume;
  if (body.update !== undefined && body.update !== null) out.update = body.update as RunCommand["update"] & object;
  if (body.goto !== undefined && body.goto !== null) out.goto = body.goto as string[];
  return out;
}

/** The checkpoint a run starts from, if the body names one. */
export function checkpointIdOf(body: RunCreateBody): string | undefined {
  return body.checkpoint?.checkpoint_id ?? body.checkpoint_id ?? undefined;
}

/**
 * Builds the runtime's input for a run of `assistant` on `threadId`.
 *
 * @param ifNotExists - `create` for stateless runs; else the body's (default `reject`).
 * @param userId - the authenticated caller's id (see `runUserIdOf`): written to
 *   `config.configurable.user_id`, and to `context.user_id` when the context has that key.
 */
export function toCreateRunInput(
  body: RunCreateBody,
  assistant: Pick<RegisteredAssistant, "assistantId" | "graphId" | "config" | "context">,
  threadId: string,
  ifNotExists: "create" | "reject",
  userId: string,
): CreateRunInput {
  const input: CreateRunInput = {
    threadId,
    assistantId: assistant.assistantId,
    metadata: { ...body.metadata },
    multitaskStrategy: body.multitask_strategy ?? DEFAULT_MULTITASK_STRATEGY,
    onDisconnect: body.on_disconnect ?? DEFAULT_ON_DISCONNECT,
    ifNotExists,
    threadMetadata: { graph_id: assistant.graphId, assistant_id: assistant.assistantId },
  };
  if (body.input !== undefined) input.input = body.input;
  const cmd = command(body.command);
  if (cmd !== undefined) input.command = cmd;
  input.config = mergeConfig(assistant.config, body.config, userId);
  const context = { ...assistant.context, ...body.context };
  if (Object.hasOwn(context, RUN_USER_ID_KEY)) context[RUN_USER_ID_KEY] = userId;
  if (Object.keys(context).length > 0) input.context = context;
  if (body.stream_mode !== null && body.stream_mode !== undefined) input.streamMode = body.stream_mode;
  if (typeof body.stream_subgraphs === "boolean") input.streamSubgraphs = body.stream_subgraphs;
  const before = nodes(body.interrupt_before);
  if (before !== undefined) input.interruptBefore = before;
  const after = nodes(body.interrupt_after);
  if (after !== undefined) input.interruptAfter = after;
  const checkpointId = checkpointIdOf(body);
  if (checkpointId !== undefined) input.checkpointId = checkpointId;
  // `checkpoint_during` is the Platform's older spelling: false = checkpoint only at exit.
  const durability =
    body.durability ??
    (typeof body.checkpoint_during === "boolean" ? (body.checkpoint_during ? "async" : "exit") : null);
  if (durability !== null) input.durability = durability;
  return input;
}
