/**
 * The built-in non-OpenAI providers of `models:` entries, chosen by `use:`:
 * `anthropic` (`ChatAnthropic` from `@langchain/anthropic`, Anthropic's
 * Messages API) and `google` (`ChatGoogleGenerativeAI` from
 * `@langchain/google-genai`, the Gemini API). The entry's common keys map to
 * each constructor's names; `options` (and a run's thinking fields) are spread
 * on top, so any provider field can be set.
 */
import { ChatAnthropic } from "@langchain/anthropic";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { ChatGoogleGenerativeAI } from "@langchain/google-genai";
import type { ModelConfig } from "../config/types.js";
import { ModelError } from "./errors.js";

const present = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } =>
  value === undefined ? {} : ({ [key]: value } as { [P in K]: V });

function requireKey(model: ModelConfig, env: NodeJS.ProcessEnv, variable: string): string {
  const key = model.apiKey ?? env[variable];
  if (key === undefined)
    throw new ModelError(
      "MODEL_CONFIG_INVALID",
      model.name,
      `Model "${model.name}": no api_key in the config and ${variable} is not set`,
    );
  return key;
}

/**
 * `use: anthropic`: `api_key` (else `ANTHROPIC_API_KEY`), `base_url` (the API root, e.g. a proxy),
 * `max_tokens`, `temperature`, `timeout_seconds`, `max_retries`.
 *
 * @param model - the entry
 * @param env - the environment
 * @returns the chat model
 */
export function createAnthropicModel(model: ModelConfig, env: NodeJS.ProcessEnv): BaseChatModel {
  return new ChatAnthropic({
    model: model.model as string,
    apiKey: requireKey(model, env, "ANTHROPIC_API_KEY"),
    ...present("anthropicApiUrl", model.baseUrl),
    ...present("temperature", model.temperature),
    ...present("maxTokens", model.maxTokens),
    ...present("maxRetries", model.maxRetries),
    ...(model.timeoutMs === undefined ? {} : { clientOptions: { timeout: model.timeoutMs } }),
    ...model.options,
  });
}

/**
 * `use: google`: `api_key` (else `GOOGLE_API_KEY`), `base_url` (the API root), `max_tokens`
 * (`maxOutputTokens`), `temperature`, `max_retries`.
 *
 * @param model - the entry
 * @param env - the environment
 * @returns the chat model
 */
export function createGoogleModel(model: ModelConfig, env: NodeJS.ProcessEnv): BaseChatModel {
  return new ChatGoogleGenerativeAI({
    model: model.model as string,
    apiKey: requireKey(model, env, "GOOGLE_API_KEY"),
    ...present("baseUrl", model.baseUrl),
    ...present("temperature", model.temperature),
    ...present("maxOutputTokens", model.maxTokens),
    ...present("maxRetries", model.maxRetries),
    ...model.options,
  });
}
