/**
 * `createMemoryMiddleware`: memory in a LangChain v1 agent (`createAgent`).
 *
 * - `beforeAgent` (injection, DeerFlow's `DynamicContextMiddleware` memory part):
 *   on the first real user turn of a conversation only, the user's message
 *   (id X) is swapped for two messages: a hidden **human** message `X__memory`
 *   carrying `<memory>…</memory>` (user-role data, never system authority) and
 *   a copy of the user's message `X__user`. The snapshot is frozen in state, so
 *   later turns see the same memory. Building it has a timeout (default 5 s);
 *   on timeout or error nothing is injected and the run goes on.
 * - `afterAgent` (capture, DeerFlow's `MemoryMiddleware`): queues the thread's
 *   messages for extraction. A full queue is logged, never fails the run.
 */
import { HumanMessage, RemoveMessage, type BaseMessage } from "@langchain/core/messages";
import { createMiddleware, type AgentMiddleware } from "langchain";
import { silentLogger, type Logger } from "../logger.js";
import type { MemoryManager } from "../memory-manager.js";
import { memoryScopeOf, threadIdOf, type RunScopeSource } from "../memory-scope-of.js";
import type { MemoryUpdateQueue } from "../queue/memory-update-queue.js";
import type { MemoryScope } from "../types.js";
import { formatMemory, type TokenCounter } from "./format-memory.js";

/** Suffix of the injected memory message's id. */
export const MEMORY_MESSAGE_SUFFIX = "__memory";
/** Suffix of the copied user message's id. */
export const USER_MESSAGE_SUFFIX = "__user";

/** Options of {@link createMemoryMiddleware}. */
export interface MemoryMiddlewareOptions {
  readonly manager: MemoryManager;
  /** `injection_enabled`. Default true. */
  readonly injection?: boolean;
  /** Where conversations go after a run (absent = no capture, e.g. tool mode). */
  readonly queue?: MemoryUpdateQueue;
  /** User of runs whose config names none (absent = such runs get no memory). */
  readonly defaultUserId?: string;
  /** Agent of runs whose config names none (absent = the default bucket). */
  readonly agentName?: string;
  /** Reads the scope from a run's config. Default {@link memoryScopeOf}. */
  readonly scopeOf?: (config: RunScopeSource) => MemoryScope | undefined;
  /** Longest wait for the memory text. Default 5000. */
  readonly injectionTimeoutMs?: number;
  readonly countTokens?: TokenCounter;
  readonly logger?: Logger;
}

const isHidden = (m: BaseMessage): boolean => m.additional_kwargs?.["hide_from_ui"] === true;

function firstTurnMessage(messages: readonly BaseMessage[]): HumanMessage | undefined {
  if (messages.some((m) => m.id?.endsWith(MEMORY_MESSAGE_SUFFIX) === true)) return undefined;
  const users = messages.filter((m) => HumanMessage.isInstance(m) && !isHidden(m));
  if (users.length !== 1 || messages.some((m) => m.type === "ai")) return undefined;
  const user = users[0] as HumanMessage;
  return user.id === undefined ? undefined : user;
}

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
  const scopeOf =
    options.scopeOf ??
    ((config: RunScopeSource) =>
      memoryScopeOf(config, {
        ...(options.defaultUserId === undefined ? {} : { userId: options.defaultUserId }),
        ...(options.agentName === undefined ? {} : { agentName: options.agentName }),
      }));

  return createMiddleware({
    name: "MemoryMiddleware",
    beforeAgent: async (state, runtime) => {
      if (!injection) return undefined;
      const user = firstTurnMessage(state.messages as BaseMessage[]);
      const scope = scopeOf(runtime as RunScopeSource);
      if (user === undefined || scope === undefined) return undefined;
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
        logger.warn({ err }, "memory could not be read; the run goes on without it");
        return undefined;
      }
      if (text === "timeout") {
        logger.warn({ timeoutMs }, "memory took too long; the run goes on without it");
        return undefined;
      }
      if (text === "") return undefined;
      const id = user.id as string;
      return {
        messages: [
          new RemoveMessage({ id }),
          new HumanMessage({
            id: `${id}${MEMORY_MESSAGE_SUFFIX}`,
            content: `<memory>\n${text}\n</memory>`,
            additional_kwargs: { hide_from_ui: true },
          }),
          new HumanMessage({
            id: `${id}${USER_MESSAGE_SUFFIX}`,
            content: user.content,
            additional_kwargs: user.additional_kwargs,
            response_metadata: user.response_metadata,
            ...(user.name === undefined ? {} : { name: user.name }),
          }),
        ],
      };
    },
    afterAgent: (state, runtime) => {
      const queue = options.queue;
      if (queue === undefined) return undefined;
      const threadId = threadIdOf(runtime as RunScopeSource);
      const scope = scopeOf(runtime as RunScopeSource);
      if (threadId === undefined || scope === undefined) return undefined;
      try {
        queue.add(threadId, scope, state.messages as BaseMessage[]);
      } catch (err) {
        logger.warn({ err, threadId }, "conversation not queued for memory");
      }
      return undefined;
    },
  });
}
