/**
 * The model of each run of a compiled agent: `model_name` (or `model`) from
 * the run's config when it is a configured model, else the default — with one
 * warning per run for an unknown name, as DeerFlow does. Resolved models are
 * kept, so code that cannot wait (the `task` tool's parent context) reads the
 * run's model synchronously once the run's first model call has resolved it.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { LruCache } from "@deerflow/kernel";
import { silentLogger, type Logger } from "../logger.js";
import type { RunOptions } from "../run/run-options.js";
import type { ModelResolver } from "./model-resolver.js";
import { resolveRunThinking } from "./thinking.js";

/** Runs remembered as already warned about an unknown model. */
const WARNED_RUNS = 1024;

/** A run's model. */
export interface RunModel {
  readonly name: string;
  readonly model: BaseChatModel;
}

/** Per-agent model resolution for runs. */
export class RunModels {
  readonly #resolver: ModelResolver;
  readonly #logger: Logger;
  readonly #models = new Map<string, BaseChatModel>();
  readonly #warned = new LruCache<string, true>(WARNED_RUNS);
  readonly #thinkingWarned = new LruCache<string, true>(WARNED_RUNS);
  /** Thinking / effort variants by model name and fields (few per model: thinking on/off × efforts). */
  readonly #variants = new Map<string, Promise<BaseChatModel>>();

  readonly #defaultModel: BaseChatModel;

  private constructor(resolver: ModelResolver, defaultModel: BaseChatModel, logger: Logger) {
    this.#resolver = resolver;
    this.#defaultModel = defaultModel;
    this.#logger = logger;
    this.#models.set(resolver.defaultModel, defaultModel);
  }

  /**
   * Resolves the default model (a bad default fails here, at compile time, not in a run).
   *
   * @param resolver - where models come from
   * @param logger - receives the unknown-model warnings
   * @returns the run models
   */
  static async create(resolver: ModelResolver, logger: Logger = silentLogger): Promise<RunModels> {
    return new RunModels(resolver, await resolver.get(resolver.defaultModel), logger);
  }

  /** The default model's instance. */
  get defaultModel(): BaseChatModel {
    return this.#defaultModel;
  }

  /** Name of the default model. */
  get defaultName(): string {
    return this.#resolver.defaultModel;
  }

  /** The name a run gets: its `model_name` when configured, else the default (warned once per run). */
  nameFor(run: RunOptions): string {
    const requested = run.modelName;
    if (requested === undefined || requested === this.#resolver.defaultModel || this.#resolver.has(requested))
      return requested ?? this.#resolver.defaultModel;
    const key = run.runId ?? run.threadId ?? requested;
    if (this.#warned.get(key) === undefined) {
      this.#warned.set(key, true);
      this.#logger.warn(
        { threadId: run.threadId, runId: run.runId, requested, using: this.#resolver.defaultModel },
        "unknown model requested for the run; using the default model",
      );
    }
    return this.#resolver.defaultModel;
  }

  /**
   * Resolves a run's model.
   *
   * @param run - the run's options
   * @returns its name and instance
   */
  async resolve(run: RunOptions): Promise<RunModel> {
    const name = this.nameFor(run);
    const profile = this.#resolver.profile?.(name);
    const variant = this.#resolver.variant?.bind(this.#resolver);
    if (variant === undefined) return { name, model: await this.get(name) };
    let fields: Record<string, unknown> = {};
    if (profile !== undefined) {
      const request = {
        ...(run.thinkingEnabled === undefined ? {} : { thinkingEnabled: run.thinkingEnabled }),
        ...(run.reasoningEffort === undefined ? {} : { reasoningEffort: run.reasoningEffort }),
      };
      const thinking = resolveRunThinking(profile, request);
      if (thinking.thinkingRefused) this.#warnNoThinking(run, name);
      fields = { ...thinking.fields };
    }
    // A custom agent's model_settings override the model's profile (LangChain's constructor names).
    const settings = run.customAgent?.modelSettings;
    if (settings?.temperature !== undefined) fields["temperature"] = settings.temperature;
    if (settings?.maxTokens !== undefined) fields["maxTokens"] = settings.maxTokens;
    if (Object.keys(fields).length === 0) return { name, model: await this.get(name) };
    const key = `${name}\u0000${JSON.stringify(fields)}`;
    let pending = this.#variants.get(key);
    if (pending === undefined) {
      pending = variant(name, fields);
      this.#variants.set(key, pending);
      pending.catch(() => this.#variants.delete(key));
    }
    return { name, model: await pending };
  }

  #warnNoThinking(run: RunOptions, name: string): void {
    const key = run.runId ?? run.threadId ?? name;
    if (this.#thinkingWarned.get(key) !== undefined) return;
    this.#thinkingWarned.set(key, true);
    this.#logger.warn(
      { threadId: run.threadId, runId: run.runId, model: name },
      "thinking requested on a model without supports_thinking; thinking disabled",
    );
  }

  /** Whether the run's model sees images (`supports_vision`). */
  supportsVision(run: RunOptions): boolean {
    return this.#resolver.supportsVision?.(this.nameFor(run)) ?? false;
  }

  /** Whether `name` is a configured model. */
  has(name: string): boolean {
    return this.#resolver.has(name);
  }

  /**
   * A configured model by name (kept after the first resolution).
   *
   * @param name - a configured model's name
   * @returns its instance
   */
  async get(name: string): Promise<BaseChatModel> {
    let model = this.#models.get(name);
    if (model === undefined) {
      model = await this.#resolver.get(name);
      this.#models.set(name, model);
    }
    return model;
  }

  /**
   * The run's model when already resolved (its first model call does it), else the default.
   *
   * @param run - the run's options
   * @returns a model instance
   */
  current(run: RunOptions): BaseChatModel {
    return this.#models.get(this.nameFor(run)) ?? this.#defaultModel;
  }
}
