/**
 * `McpTool`: one MCP server tool as a LangChain tool, built for the per-call
 * path. LangChain's `DynamicStructuredTool` checks a JSON-schema input with
 * `@cfworker/json-schema`'s `validate`, which dereferences the schema again on
 * every call, and goes through two `call` layers; here the input schema is
 * compiled once per tool (ajv, on first use) and the call runs in one layer,
 * with the same callbacks (`handleToolStart` / `End` / `Error`, so stream
 * events and tracing see the call as before) and the same `ToolMessage`.
 *
 * A call nothing observes (no callbacks in the config or on the tool, no
 * LangChain context such as a graph run or a LangSmith `traceable` around it,
 * no tracing or verbose switch in the environment) skips LangChain's config
 * merge and callback setup altogether: it validates, runs and wraps the answer,
 * one promise layer over the runner's.
 */
import {
  CallbackManager,
  parseCallbackConfigArg,
  type BaseCallbackConfig,
  type Callbacks,
} from "@langchain/core/callbacks/manager";
import { ToolMessage, type ToolCall } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";
import { StructuredTool, ToolInputParsingException, type ToolRunnableConfig } from "@langchain/core/tools";
import type { JSONSchema } from "@langchain/core/utils/json_schema";
import type { ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { McpToolContent } from "./call-result.js";

/** What one call answers: the model's content and the artifact (server, tool, structured content). */
export type McpToolAnswer = readonly [McpToolContent, unknown];

/** Runs one call on the server (args already checked against the input schema). */
export type McpToolRunner = (args: Record<string, unknown>, config: RunnableConfig) => Promise<McpToolAnswer>;

/** Fields of an {@link McpTool}. */
export interface McpToolFields {
  readonly name: string;
  readonly description: string;
  /** The tool's `inputSchema` (JSON Schema) as the server listed it. */
  readonly schema: JSONSchema;
  readonly metadata: Record<string, unknown>;
  readonly run: McpToolRunner;
}

// One compiler for every MCP tool: MCP's schemas are JSON Schema 2020-12 unless they say otherwise, and
// a server's own keywords and formats must not make a tool unusable (the server checks its input too).
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: false, logger: false });

const isToolCall = (arg: unknown): arg is ToolCall =>
  typeof arg === "object" && arg !== null && (arg as { type?: unknown }).type === "tool_call" && "args" in arg;

/**
 * Whether LangChain's environment switches add a handler to every run (`LANGCHAIN_VERBOSE`, LangSmith
 * tracing: the variables `CallbackManager.configure` reads). Read once, at the first call: reading
 * `process.env` five times a call costs more than the rest of the fast path; set them before the first
 * tool call (as LangSmith's own client expects).
 */
let observedByEnvironment: boolean | undefined;
const environmentObserves = (): boolean =>
  (observedByEnvironment ??= ["LANGCHAIN_VERBOSE", ...TRACING_VARIABLES].some((v) => process.env[v] === "true"));
const TRACING_VARIABLES = ["LANGSMITH_TRACING_V2", "LANGCHAIN_TRACING_V2", "LANGSMITH_TRACING", "LANGCHAIN_TRACING"];

/** Callbacks that would see a call: a non-empty handler list or a manager holding handlers. */
const hasHandlers = (callbacks: Callbacks | undefined): boolean =>
  callbacks !== undefined &&
  (Array.isArray(callbacks) ? callbacks.length > 0 : (callbacks as CallbackManager).handlers.length > 0);

const contentOf = (answer: McpToolAnswer): McpToolContent => answer[0];

/** The tool. */
export class McpTool extends StructuredTool {
  override readonly name: string;
  override readonly description: string;
  override readonly schema: JSONSchema;
  override responseFormat = "content_and_artifact" as const;
  readonly #run: McpToolRunner;
  /** What the callbacks are told the tool is (`toJSON()` walks the constructor fields: once per tool, not per call). */
  #serialized: ReturnType<StructuredTool["toJSON"]> | undefined;
  /** `undefined` until the first call; `null` when the schema does not compile (the server then judges alone). */
  #validate: ValidateFunction | null | undefined;

  /** @param fields - name, description, input schema, metadata and the runner */
  constructor(fields: McpToolFields) {
    super({ metadata: fields.metadata, responseFormat: "content_and_artifact" });
    this.name = fields.name;
    this.description = fields.description;
    this.schema = fields.schema;
    this.#run = fields.run;
  }

  /**
   * Runs the tool as LangChain's `invoke` does (a tool call in, a `ToolMessage` out), without LangChain's
   * config handling when nothing observes the call (see the module comment); else through it.
   *
   * @param input - the arguments, or a tool call carrying them
   * @param config - the run config
   * @returns a `ToolMessage` when the input is a tool call with an id, else the content
   */
  override invoke(input: unknown, config?: ToolRunnableConfig): Promise<ToolMessage | McpToolContent> {
    if (!this.#unobserved(config)) return super.invoke(input as never, config as never) as Promise<ToolMessage>;
    const toolCall = isToolCall(input) ? input : undefined;
    const args = toolCall === undefined ? input : toolCall.args;
    try {
      this.#check(args, input);
    } catch (err) {
      return Promise.reject(err);
    }
    // As LangChain's `call`: an id on a `toolCall` in the config counts when the input is bare arguments.
    const toolCallId = toolCall === undefined ? config?.toolCall?.id : toolCall.id;
    const answer = this.#run(args as Record<string, unknown>, config ?? {});
    if (toolCallId === undefined || toolCallId === "") return answer.then(contentOf);
    return answer.then((a) => this.#message(a, toolCallId));
  }

  /** No handler, context or environment switch would see a call with this config. */
  #unobserved(config: RunnableConfig | undefined): boolean {
    return (
      (config === undefined || (config.timeout === undefined && !hasHandlers(config.callbacks))) &&
      this.callbacks === undefined &&
      this.verbose !== true &&
      this.defaultConfig === undefined &&
      // A graph run, a `traceable`, context variables and configure hooks all live in this store.
      AsyncLocalStorageProviderSingleton.getInstance().getStore() === undefined &&
      !environmentObserves()
    );
  }

  #message([content, artifact]: McpToolAnswer, toolCallId: string): ToolMessage {
    return new ToolMessage(
      this.metadata === undefined
        ? { status: "success", content, artifact, tool_call_id: toolCallId, name: this.name }
        : { status: "success", content, artifact, tool_call_id: toolCallId, name: this.name, metadata: this.metadata },
    );
  }

  /**
   * Checks the input, then runs the call between the callbacks' tool start and end.
   *
   * @param arg - the arguments, or a tool call carrying them
   * @param configArg - the run config (or callbacks)
   * @param tags - tags when the config has none
   * @returns a `ToolMessage` when the call has an id, else the content
   * @throws ToolInputParsingException naming what is wrong with the input
   */
  override async call(
    arg: unknown,
    configArg?: Callbacks | BaseCallbackConfig,
    tags?: string[],
  ): Promise<ToolMessage | McpToolContent> {
    const args = isToolCall(arg) ? arg.args : arg;
    this.#check(args, arg);
    const config = parseCallbackConfigArg(configArg) as BaseCallbackConfig & RunnableConfig & { toolCall?: ToolCall };
    config.runName ??= this.name;
    const toolCallId = (isToolCall(arg) ? arg.id : undefined) ?? config.toolCall?.id;
    const callbacks = CallbackManager.configure(
      config.callbacks,
      this.callbacks,
      config.tags ?? tags,
      this.tags,
      config.metadata,
      this.metadata,
      { verbose: this.verbose },
    );
    const runManager = await callbacks?.handleToolStart(
      (this.#serialized ??= this.toJSON()),
      args as Record<string, unknown>,
      config.runId,
      undefined,
      undefined,
      undefined,
      config.runName,
      toolCallId,
    );
    delete config.runId;
    let answer: McpToolAnswer;
    try {
      answer = await this.#run(args as Record<string, unknown>, config);
    } catch (err) {
      await runManager?.handleToolError(err);
      throw err;
    }
    const out = toolCallId === undefined || toolCallId === "" ? answer[0] : this.#message(answer, toolCallId);
    await runManager?.handleToolEnd(out);
    return out;
  }

  /** Not used: {@link call} runs the tool (kept for LangChain's abstract contract). */
  protected override async _call(args: Record<string, unknown>, _runManager: unknown, config?: RunnableConfig) {
    return this.#run(args, config ?? {});
  }

  #check(args: unknown, arg: unknown): void {
    if (this.#validate === undefined) {
      // A copy without `$id`: the same server's schema compiles again after a reload, and is not kept by ajv.
      const { $id: _id, ...schema } = this.schema as Record<string, unknown>;
      try {
        this.#validate = ajv.compile(schema);
      } catch {
        this.#validate = null;
      } finally {
        ajv.removeSchema(schema);
      }
    }
    const validate = this.#validate;
    const isObject = typeof args === "object" && args !== null && !Array.isArray(args);
    if (isObject && (validate === null || validate(args))) return;
    const details = isObject
      ? ajv.errorsText(validate?.errors, { dataVar: "input" })
      : `input must be an object, got ${args === null ? "null" : Array.isArray(args) ? "an array" : typeof args}`;
    throw new ToolInputParsingException(
      `Received tool input did not match expected schema of '${this.name}': ${details}`,
      JSON.stringify(arg),
    );
  }
}
