/**
 * `createChatModel`: one `models:` entry → a LangChain chat model.
 *
 * - `use: openai` (default): `ChatOpenAI` against any OpenAI-compatible
 *   endpoint (`base_url`), with `api_key` from the entry or `OPENAI_API_KEY`;
 *   `replay_reasoning: true` replays earlier `reasoning_content` (see `reasoning-replay.ts`).
 * - `use: anthropic` / `use: google`: `ChatAnthropic` / `ChatGoogleGenerativeAI` (see `provider-models.ts`).
 * - `use: demo`: the offline {@link DemoChatModel}.
 * - `use: "<module>:<export>"`: a plugin. A class is constructed, a function
 *   called (and awaited), with {@link ChatModelPluginInput}; the result must be
 *   a chat model (`invoke` and `bindTools`).
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { ChatOpenAI } from "@langchain/openai";
import type { ModelConfig } from "../config/types.js";
import { silentLogger, type Logger } from "../logger.js";
import { loadPlugin } from "../plugins/index.js";
import { DemoChatModel } from "./demo-chat-model.js";
import { ModelError } from "./errors.js";
import { createAnthropicModel, createGoogleModel } from "./provider-models.js";
import { ReasoningReplayCompletions } from "./reasoning-replay.js";

/** Options of {@link createChatModel}. */
export interface CreateChatModelOptions {
  /** Folder of the config file (plugin lookup). */
  readonly configDir?: string;
  /** Working directory (plugin lookup). */
  readonly cwd?: string;
  /** Environment (`OPENAI_API_KEY`). Default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  readonly logger?: Logger;
}

/**
 * What a chat-model plugin's constructor or factory receives: the entry's
 * common fields under LangChain's usual names, then its `options` spread on
 * top (so `use: "@langchain/anthropic:ChatAnthropic"` works with `options`
 * holding provider-specific fields).
 */
export interface ChatModelPluginInput {
  readonly model?: string;
  readonly apiKey?: string;
  readonly baseUrl?: string;
  readonly temperature?: number;
  readonly maxTokens?: number;
  /** Milliseconds. */
  readonly timeout?: number;
  readonly maxRetries?: number;
  readonly [option: string]: unknown;
}

/** True for objects that can serve as an agent's model. */
export function isChatModelLike(value: unknown): value is BaseChatModel {
  const v = value as Record<string, unknown> | null;
  return (
    typeof v === "object" && v !== null && typeof v["invoke"] === "function" && typeof v["bindTools"] === "function"
  );
}

function pluginInput(m: ModelConfig): ChatModelPluginInput {
  return {
    ...(m.model === undefined ? {} : { model: m.model }),
    ...(m.apiKey === undefined ? {} : { apiKey: m.apiKey }),
    ...(m.baseUrl === undefined ? {} : { baseUrl: m.baseUrl }),
    ...(m.temperature === undefined ? {} : { temperature: m.temperature }),
    ...(m.maxTokens === undefined ? {} : { maxTokens: m.maxTokens }),
    ...(m.timeoutMs === undefined ? {} : { timeout: m.timeoutMs }),
    ...(m.maxRetries === undefined ? {} : { maxRetries: m.maxRetries }),
    ...m.options,
  };
}

/**
 * Creates the chat model of one configured entry.
 *
 * @param model - a resolved `models:` entry
 * @param options - plugin lookup folders, environment, logger
 * @returns the chat model
 * @throws ModelError `MODEL_CONFIG_INVALID` (e.g. an OpenAI entry without `model`, or without an API key and
 *   without `base_url`), `MODEL_CREATE_FAILED` (the provider constructor threw); PluginLoadError for plugin problems
 * @example
 * ```ts
 * const chat = await createChatModel({ name: "gpt", use: { kind: "openai" }, model: "gpt-4o-mini", supportsVision: false, supportsThinking: false, options: {} });
 * ```
 */
export async function createChatModel(
  model: ModelConfig,
  options: CreateChatModelOptions = {},
): Promise<BaseChatModel> {
  const logger = options.logger ?? silentLogger;
  switch (model.use.kind) {
    case "demo":
      return new DemoChatModel();
    case "anthropic":
    case "google":
      try {
        return model.use.kind === "anthropic"
          ? createAnthropicModel(model, options.env ?? process.env)
          : createGoogleModel(model, options.env ?? process.env);
      } catch (err) {
        if (ModelError.isInstance(err)) throw err;
        throw new ModelError("MODEL_CREATE_FAILED", model.name, `Model "${model.name}": ${(err as Error).message}`, {
          cause: err,
        });
      }
    case "plugin":
      return loadPlugin(model.use.use, {
        ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
        ...(options.configDir === undefined ? {} : { configDir: options.configDir }),
        options: pluginInput(model),
        purpose: `chat model "${model.name}"`,
        shape: "a LangChain chat model (with invoke and bindTools)",
        check: isChatModelLike,
      });
    case "openai": {
      if (model.model === undefined)
        throw new ModelError(
          "MODEL_CONFIG_INVALID",
          model.name,
          `Model "${model.name}": "model" (the provider's model id) is required for OpenAI-compatible models`,
        );
      const env = options.env ?? process.env;
      // Local OpenAI-compatible servers (vLLM, Ollama...) often need no key; the SDK still wants one.
      const apiKey = model.apiKey ?? env["OPENAI_API_KEY"] ?? (model.baseUrl !== undefined ? "EMPTY" : undefined);
      if (apiKey === undefined) {
        throw new ModelError(
          "MODEL_CONFIG_INVALID",
          model.name,
          `Model "${model.name}": no api_key in the config and OPENAI_API_KEY is not set (set one, or base_url for a local endpoint)`,
        );
      }
      try {
        const fields = {
          model: model.model,
          apiKey,
          ...(model.baseUrl === undefined ? {} : { configuration: { baseURL: model.baseUrl } }),
          ...(model.temperature === undefined ? {} : { temperature: model.temperature }),
          ...(model.maxTokens === undefined ? {} : { maxTokens: model.maxTokens }),
          ...(model.timeoutMs === undefined ? {} : { timeout: model.timeoutMs }),
          ...(model.maxRetries === undefined ? {} : { maxRetries: model.maxRetries }),
          ...model.options,
        };
        // replay_reasoning: the Chat Completions half sends earlier reasoning_content back.
        return new ChatOpenAI(
          model.replayReasoning === true ? { ...fields, completions: new ReasoningReplayCompletions(fields) } : fields,
        );
      } catch (err) {
        logger.error({ model: model.name, err: (err as Error).message }, "cannot create the OpenAI-compatible model");
        throw new ModelError("MODEL_CREATE_FAILED", model.name, `Model "${model.name}": ${(err as Error).message}`, {
          cause: err,
        });
      }
    }
  }
}
