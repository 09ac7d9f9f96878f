/**
 * `createMemoryMiddleware`: memory in a LangChain v1 agent (`createAgent`),
 * entirely inside the model call (`wrapModelCall`): it adds no graph node, so
 * a run pays nothing for it between model calls.
 *
 * - Injection (DeerFlow's `DynamicContextMiddleware` memory part): every model
 *   request of a conversation gets the user's memory as a hidden **human**
 *   message `<id>__memory` carrying `<memory>…</memory>`, placed right before
 *   the conversation's first user message — user-role data, never system
 *   authority. The memory is read once per conversation (first model call)
 *   and kept for it in an in-process cache, so the conversation sees one
 *   frozen snapshot; a restarted or other instance reads it again. Reading has
 *   a timeout (default 5 s); on timeout or error the call goes on without it.
 *   The request changes; the thread's state does not.
 * - Capture (DeerFlow's `MemoryMiddleware`): a final answer (an AI message
 *   without tool calls) queues the conversation for extraction. A full queue
 *   is logged, never fails the run.
 */
import { LruCache } from "@deerflow/kernel";
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { createMiddleware, type AgentMiddleware } from "langchain";
import { agentBucketOf } from "../document.js";
import { silentLogger, type Logger } from "../logger.js";
import type { MemoryManager } from "../memory-manager.js";
import { memoryScopeOf, threadIdOf, type RunScopeSource } from "../memory-scope-of.js";
import type { MemoryUpdateQueue } from "../queue/memory-update-queue.js";
import type { MemoryScope } from "../types.js";
import { formatMemory, type TokenCounter } from "./format-memory.js";

/** Suffix of the injected memory message's id. */
export const MEMORY_MESSAGE_SUFFIX = "__memory";

/** Options of {@link createMemoryMiddleware}. */
export interface MemoryMiddlewareOptions {
  readonly manager: MemoryManager;
  /** `injection_enabled`. Default true. */
  readonly injection?: boolean;
  /** Where conversations go after a final answer (absent = no capture, e.g. tool mode). */
  readonly queue?: MemoryUpdateQueue;
  /** User of runs whose config names none (absent = such runs get no memory). */
  readonly defaultUserId?: string;
  /** Agent of runs whose config names none (absent = the default bucket). */
  readonly agentName?: string;
  /** Reads the scope from a run's config. Default {@link memoryScopeOf}. */
  readonly scopeOf?: (config: RunScopeSource) => MemoryScope | undefined;
  /** Longest wait for the memory text. Default 5000. */
  readonly injectionTimeoutMs?: number;
  /** Conversations whose memory snapshot is kept in process. Default 1024. */
  readonly snapshotCacheSize?: number;
  readonly countTokens?: TokenCounter;
  readonly logger?: Logger;
}

const isGenuineUser = (m: BaseMessage): boolean =>
  HumanMessage.isInstance(m) && m.additional_kwargs?.["hide_from_ui"] !== true;

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T | "timeout"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<"timeout">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * @param options - manager, injection switch, queue, scope rules, budget, logger
 * @returns the middleware (name `MemoryMiddleware`)
 */
export function createMemoryMiddleware(options: MemoryMiddlewareOptions): AgentMiddleware {
  const logger = options.logger ?? silentLogger;
  const { manager } = options;
  const injection = options.injection ?? true;
  const timeoutMs = options.injectionTimeoutMs ?? 5000;
  const snapshots = new LruCache<string, string>(options.snapshotCacheSize ?? 1024);
  const scopeOf =
    options.scopeOf ??
    ((config: RunScopeSource) =>
      memoryScopeOf(config, {
        ...(options.defaultUserId === undefined ? {} : { userId: options.defaultUserId }),
        ...(options.agentName === undefined ? {} : { agentName: options.agentName }),
      }));

  /** The conversation's memory text ("" = none), read once per conversation. */
  const snapshot = async (key: string, scope: MemoryScope): Promise<string> => {
    const cached = snapshots.get(key);
    if (cached !== undefined) return cached;
    let text: string | "timeout";
    try {
      text = await withTimeout(
        manager.get(scope).then((doc) =>
          formatMemory(doc, {
            maxInjectionTokens: manager.settings.maxInjectionTokens,
            guaranteedCategories: manager.settings.guaranteedCategories,
            guaranteedTokenBudget: manager.settings.guaranteedTokenBudget,
            ...(options.countTokens === undefined ? {} : { countTokens: options.countTokens }),
          }),
        ),
        timeoutMs,
      );
    } catch (err) {
      logger.warn({ err }, "memory could not be read; the model call goes on without it");
      return "";
    }
    if (text === "timeout") {
      logger.warn({ timeoutMs }, "memory took too long; the model call goes on without it");
      return "";
    }
    snapshots.set(key, text);
    return text;
  };

  return createMiddleware({
    name: "MemoryMiddleware",
    wrapModelCall: async (request, handler) => {
      const runtime = request.runtime as RunScopeSource;
      const scope = scopeOf(runtime);
      const threadId = threadIdOf(runtime);
      const stateMessages = request.state.messages as BaseMessage[];
      let effective = request;
      const first = stateMessages.find(isGenuineUser);
      if (injection && scope !== undefined && first !== undefined) {
        // One conversation: its thread (or, without one, its first message) in the user's agent bucket.
        const key = JSON.stringify([scope.userId, agentBucketOf(scope), threadId ?? first.id ?? first.content]);
        const text = await snapshot(key, scope);
        if (text !== "") {
          const memory = new HumanMessage({
            id: `${first.id ?? "first"}${MEMORY_MESSAGE_SUFFIX}`,
            content: `<memory>\n${text}\n</memory>`,
            additional_kwargs: { hide_from_ui: true },
          });
          const messages = [...(request.messages as BaseMessage[])];
          const at = messages.findIndex((m) => m === first || (first.id !== undefined && m.id === first.id));
          messages.splice(Math.max(at, 0), 0, memory);
          effective = { ...request, messages };
        }
      }
      const response = await handler(effective);
      const queue = options.queue;
      if (
        queue !== undefined &&
        threadId !== undefined &&
        scope !== undefined &&
        AIMessage.isInstance(response) &&
        (response.tool_calls ?? []).length === 0
      ) {
        try {
          queue.add(threadId, scope, [...stateMessages, response]);
        } catch (err) {
          logger.warn({ err, threadId }, "conversation not queued for memory");
        }
      }
      return response;
    },
  });
}
