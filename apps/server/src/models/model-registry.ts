/**
 * `ModelRegistry`: the configured chat models by name, created on first use
 * and cached (a model object is stateless and shared by all runs).
 */
import type { ModelThinkingProfile } from "@deerflow/agent";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { ModelConfig } from "../config/types.js";
import { createChatModel, type CreateChatModelOptions } from "./create-chat-model.js";
import { ModelError } from "./errors.js";
import { thinkingProfileOf, withRunFields } from "./run-fields.js";

/** Options of {@link ModelRegistry}. */
export interface ModelRegistryOptions extends CreateChatModelOptions {
  readonly models: readonly ModelConfig[];
  readonly defaultModel: string;
  /** Replaces {@link createChatModel} (tests, custom wiring). */
  readonly create?: (model: ModelConfig, options: CreateChatModelOptions) => Promise<BaseChatModel>;
}

/**
 * The configured chat models.
 *
 * @example
 * ```ts
 * const models = new ModelRegistry({ models: config.models, defaultModel: config.defaultModel, configDir: loaded.baseDir });
 * const model = await models.get(); // the default model
 * ```
 */
export class ModelRegistry {
  /** Name of the default model. */
  readonly defaultModel: string;
  readonly #entries: ReadonlyMap<string, ModelConfig>;
  readonly #options: ModelRegistryOptions;
  readonly #cache = new Map<string, Promise<BaseChatModel>>();

  /**
   * @param options - entries, default name, creation options
   * @throws ModelError `MODEL_NOT_FOUND` when `defaultModel` is not among `models`
   */
  constructor(options: ModelRegistryOptions) {
    this.#options = options;
    this.#entries = new Map(options.models.map((m) => [m.name, m]));
    this.defaultModel = options.defaultModel;
    if (!this.#entries.has(options.defaultModel)) {
      throw new ModelError(
        "MODEL_NOT_FOUND",
        options.defaultModel,
        `Default model "${options.defaultModel}" is not configured (configured: ${this.names().join(", ")})`,
      );
    }
  }

  /** Configured model names, in config order. */
  names(): string[] {
    return [...this.#entries.keys()];
  }

  /** True when a model of that name is configured. */
  has(name: string): boolean {
    return this.#entries.has(name);
  }

  /** The config entry of a model. */
  config(name: string): ModelConfig | undefined {
    return this.#entries.get(name);
  }

  /**
   * The chat model of that name (the default when omitted), created once.
   * A failed creation is not cached, so a fixed environment can retry.
   *
   * @throws ModelError `MODEL_NOT_FOUND` for an unknown name; creation errors as {@link createChatModel}
   */
  async get(name: string = this.defaultModel): Promise<BaseChatModel> {
    const entry = this.#entries.get(name);
    if (entry === undefined)
      throw new ModelError("MODEL_NOT_FOUND", name, `Unknown model "${name}" (configured: ${this.names().join(", ")})`);
    let pending = this.#cache.get(name);
    if (pending === undefined) {
      pending = (this.#options.create ?? createChatModel)(entry, this.#options);
      this.#cache.set(name, pending);
      pending.catch(() => this.#cache.delete(name));
    }
    return pending;
  }

  /** Whether the model sees images (`supports_vision`): its runs get `view_image`. */
  supportsVision(name: string): boolean {
    return this.#entries.get(name)?.supportsVision ?? false;
  }

  /** The model's thinking configuration (read by the agent's per-run resolution). */
  profile(name: string): ModelThinkingProfile | undefined {
    const entry = this.#entries.get(name);
    return entry === undefined ? undefined : thinkingProfileOf(entry);
  }

  /**
   * A new instance of a model with a run's thinking fields (the agent caches it per setting).
   *
   * @param name - a configured model
   * @param fields - DeerFlow-named fields (`extra_body`, `reasoning_effort`, `thinking`, ...)
   * @returns the variant
   */
  async variant(name: string, fields: Readonly<Record<string, unknown>>): Promise<BaseChatModel> {
    const entry = this.#entries.get(name);
    if (entry === undefined)
      throw new ModelError("MODEL_NOT_FOUND", name, `Unknown model "${name}" (configured: ${this.names().join(", ")})`);
    return (this.#options.create ?? createChatModel)(withRunFields(entry, fields), this.#options);
  }
}
