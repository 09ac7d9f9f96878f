/**
 * `MemoryUpdater`: one queued conversation → one structured-output call on
 * any LangChain chat model → the write gate → the manager. The model call is
 * tagged `nostream` so a host streaming the agent never shows it.
 *
 * A per-conversation watermark (DeerFlow's) keeps a conversation's turns from
 * being extracted twice: a later update of the same thread sends only the
 * turns after the last one extracted (kept in process; a restarted instance
 * starts again from the first turn, which the write gate's dedupe absorbs).
 */
import { LruCache } from "@deerflow/kernel";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage, SystemMessage, type BaseMessage } from "@langchain/core/messages";
import { silentLogger, type Logger } from "../logger.js";
import type { MemoryManager, MemoryWriteResult } from "../memory-manager.js";
import type { MemoryScope } from "../types.js";
import { agentBucketOf } from "../document.js";
import { conversationTurns, detectSignals, isTrivialConversation } from "./conversation.js";
import { MEMORY_UPDATE_SCHEMA, type MemoryUpdateResult } from "./memory-update-result.js";
import { staleCandidates } from "./staleness.js";
import { MEMORY_UPDATE_SYSTEM_PROMPT, memoryUpdateUserPrompt } from "./update-prompt.js";
import { gateMemoryUpdate, type MemorySignal, type MemoryWritePlan } from "./write-gate.js";

/** A conversation to learn from. */
export interface MemoryUpdateRequest {
  readonly scope: MemoryScope;
  readonly threadId: string;
  readonly messages: readonly BaseMessage[];
  /** Signals found earlier (merged with those detected in the messages). */
  readonly signals?: ReadonlySet<MemorySignal>;
}

/** Options of {@link MemoryUpdater}. */
export interface MemoryUpdaterOptions {
  readonly manager: MemoryManager;
  /** The extraction model, or how to get it per update (e.g. from a model registry). */
  readonly model: BaseChatModel | (() => Promise<BaseChatModel>);
  /** `withStructuredOutput`'s `method` (default: the model's own choice). */
  readonly structuredOutputMethod?: "functionCalling" | "jsonMode" | "jsonSchema";
  readonly logger?: Logger;
  /** Clock (tests). */
  readonly now?: () => Date;
}

/** What one update did. */
export type MemoryUpdateOutcome =
  | { readonly status: "skipped"; readonly reason: "trivial" }
  | { readonly status: "applied"; readonly plan: MemoryWritePlan; readonly result: MemoryWriteResult };

/** Extraction and write. */
export class MemoryUpdater {
  readonly #options: MemoryUpdaterOptions;
  readonly #logger: Logger;
  /** Turns already extracted, per conversation (thread, user, agent). */
  readonly #watermarks = new LruCache<string, number>(4096);

  /** @param options - manager, model, logger */
  constructor(options: MemoryUpdaterOptions) {
    this.#options = options;
    this.#logger = options.logger ?? silentLogger;
  }

  /**
   * Learns from a conversation.
   *
   * @param request - scope, thread and messages
   * @param signal - aborts the model call
   * @returns skipped (a trivial conversation) or what was written
   * @throws whatever the model or the backend throws (the queue logs it)
   */
  async update(request: MemoryUpdateRequest, signal?: AbortSignal): Promise<MemoryUpdateOutcome> {
    const all = conversationTurns(request.messages);
    const key = JSON.stringify([request.threadId, request.scope.userId, agentBucketOf(request.scope)]);
    const mark = this.#watermarks.get(key) ?? 0;
    // A shorter conversation than the mark: the thread was rewritten (e.g. summarised); start over.
    const turns = mark <= all.length ? all.slice(mark) : all;
    if (isTrivialConversation(turns)) return { status: "skipped", reason: "trivial" };
    const signals = new Set([...(request.signals ?? []), ...detectSignals(turns)]);
    const { manager } = this.#options;
    const now = this.#options.now?.() ?? new Date();
    const current = await manager.get(request.scope);
    const stale = staleCandidates(current.facts, manager.settings, now);
    const model =
      typeof this.#options.model === "function" ? await this.#options.model() : (this.#options.model as BaseChatModel);
    const structured = model.withStructuredOutput(MEMORY_UPDATE_SCHEMA as unknown as Record<string, unknown>, {
      name: "memory_update",
      ...(this.#options.structuredOutputMethod === undefined ? {} : { method: this.#options.structuredOutputMethod }),
    });
    const answer = (await structured.invoke(
      [
        new SystemMessage(MEMORY_UPDATE_SYSTEM_PROMPT),
        new HumanMessage(memoryUpdateUserPrompt(current, turns, signals, stale)),
      ],
      { tags: ["nostream"], ...(signal === undefined ? {} : { signal }) },
    )) as MemoryUpdateResult;
    const plan = gateMemoryUpdate(typeof answer === "object" && answer !== null ? answer : {}, current, {
      settings: manager.settings,
      signals,
      threadId: request.threadId,
      now,
    });
    const result = await manager.applyPlan(request.scope, plan);
    this.#watermarks.set(key, all.length);
    this.#logger.info(
      {
        threadId: request.threadId,
        added: result.added.length,
        removed: result.removed.length,
        evicted: result.evicted.length,
        rejected: plan.rejected.length,
      },
      "memory updated",
    );
    return { status: "applied", plan, result };
  }
}
