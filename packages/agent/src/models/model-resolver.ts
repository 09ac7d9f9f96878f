/**
 * Where the lead agent gets its chat models: a default model name, `has` and
 * `get`. The server's `ModelRegistry` fits; {@link staticModels} makes one
 * from a record of ready models (tests, embedding).
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AgentError } from "../errors.js";
import type { ModelThinkingProfile } from "./thinking.js";

/** A model resolver. */
export interface ModelResolver {
  /** Name of the model a run gets when it names none (or an unknown one). */
  readonly defaultModel: string;
  /** Whether `name` is a configured model. */
  has(name: string): boolean;
  /** The model called `name` (default: {@link ModelResolver.defaultModel}). Should return the same instance for a name. */
  get(name?: string): Promise<BaseChatModel>;
  /** The model's thinking configuration; without it (or {@link ModelResolver.variant}) runs use the model as it is. */
  profile?(name: string): ModelThinkingProfile | undefined;
  /**
   * The model called `name` built with `fields` over its configured constructor fields
   * (DeerFlow's names, e.g. `extra_body`, `reasoning_effort`, `thinking`). Callers cache the result.
   */
  variant?(name: string, fields: Readonly<Record<string, unknown>>): Promise<BaseChatModel>;
  /** Whether the model sees images (`supports_vision`): runs on it get `view_image`. Absent: no model does. */
  supportsVision?(name: string): boolean;
}

/**
 * A resolver over ready models.
 *
 * @param models - models by name
 * @param defaultModel - the default's name; default the first key
 * @returns the resolver
 * @throws {@link AgentError} `CONFIG_INVALID` when `models` is empty or `defaultModel` is not one of them
 * @example
 * ```ts
 * const models = staticModels({ fast: fakeModel().respond(new AIMessage("hi")) });
 * ```
 */
export function staticModels(models: Readonly<Record<string, BaseChatModel>>, defaultModel?: string): ModelResolver {
  const names = Object.keys(models);
  const fallback = defaultModel ?? names[0];
  if (fallback === undefined || !Object.hasOwn(models, fallback)) {
    throw new AgentError(
      "CONFIG_INVALID",
      fallback === undefined
        ? "staticModels needs at least one model"
        : `default model '${fallback}' is not one of: ${names.join(", ")}`,
      {
        details: { models: names, defaultModel: fallback ?? null },
      },
    );
  }
  const has = (name: string): boolean => Object.hasOwn(models, name);
  return {
    defaultModel: fallback,
    has,
    get: async (name = fallback) => {
      if (!has(name)) throw new AgentError("CONFIG_INVALID", `unknown model '${name}'`, { details: { model: name } });
      return models[name] as BaseChatModel;
    },
  };
}
