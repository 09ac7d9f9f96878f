/**
 * LLM error handling — DeerFlow's `LLMErrorHandlingMiddleware` (chain row 8)
 * plus model fallback: a model call that fails transiently is retried (see
 * `retry-policy.ts`), each model has a circuit breaker (`circuit-breaker.ts`),
 * the configured fallback models are tried in order once the run's model has
 * failed (LangChain's `modelFallbackMiddleware`, fed with our configured
 * models), and the final failure becomes a readable assistant message, so the
 * run ends normally and the thread stays usable.
 *
 * Config keys: `llm_call.retry_max_attempts` (3), `llm_call.retry_base_delay_ms` (1000),
 * `llm_call.retry_cap_delay_ms` (8000), `llm_call.burst_retry_base_delay_ms` (5000),
 * `llm_call.fallback_models` ([]), `circuit_breaker.failure_threshold` (5),
 * `circuit_breaker.recovery_timeout_sec` (60).
 *
 * Where we differ from DeerFlow, and why:
 * - LangChain's `modelRetryMiddleware` is not used for the retries: its
 *   exponential ±25 % delay has no memory of the previous delay (decorrelated
 *   jitter needs it), it has no one-retry rule for 429 bursts, and its wait
 *   ignores the run's abort signal (a cancelled run would sleep up to 8 s).
 *   We keep its contract otherwise: the model's own retries are switched off
 *   for the call (`modelSettings.maxRetries: 0`, which `ChatOpenAI` honours per
 *   call), so a model's `max_retries` never multiplies ours; LangChain's error
 *   marks (`getRetryable`, `retryAfterMs`) drive the classification.
 * - Fallback models (`llm_call.fallback_models`) are ours; DeerFlow has none.
 * - DeerFlow's process-wide `max_concurrent_calls` cap is not implemented.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage } from "@langchain/core/messages";
import { isGraphBubbleUp } from "@langchain/langgraph";
import { createMiddleware, modelFallbackMiddleware, type AgentMiddleware } from "langchain";
import { sleep as abortableSleep } from "@deerflow/kernel";
import { AgentError } from "../../errors.js";
import { silentLogger, type Logger } from "../../logger.js";
import { CircuitBreaker, type CircuitBreakerSettings } from "./circuit-breaker.js";
import {
  classifyError,
  decorrelatedJitter,
  DEFAULT_RETRY_SETTINGS,
  providerErrorOf,
  retryAfterOf,
  type RetrySettings,
} from "./retry-policy.js";
import { circuitOpenText, modelFailedText } from "./texts.js";

/** Options of {@link createLlmErrorHandlingMiddleware}. */
export interface LlmErrorHandlingOptions extends RetrySettings {
  /** `circuit_breaker:` (per model). */
  readonly circuitBreaker?: CircuitBreakerSettings;
  /** `llm_call.fallback_models`: configured model names tried in order after the run's model failed. Default none. */
  readonly fallbackModels?: readonly string[];
  /** Resolves a fallback name to its model (the lead agent passes `RunModels.get`); required with `fallbackModels`. */
  readonly resolveModel?: (name: string) => Promise<BaseChatModel>;
  readonly logger?: Logger;
  /** Uniform [0, 1) source of the jitter (tests). */
  readonly random?: () => number;
  /** The breakers' clock (tests). */
  readonly now?: () => number;
  /** The wait between attempts (tests); gets the run's abort signal. */
  readonly sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
}

type Handler = Parameters<NonNullable<AgentMiddleware["wrapModelCall"]>>[1];
type Request = Parameters<Handler>[0];

const describeError = (err: unknown): string => {
  const e = providerErrorOf(err) as { name?: unknown; message?: unknown } | null;
  const name = typeof e?.name === "string" && e.name !== "" ? e.name : "Error";
  const message = typeof e?.message === "string" ? e.message.split("\n")[0]?.slice(0, 300) : String(err);
  return `${name}: ${message}`;
};

/**
 * Creates the LLM error-handling middleware. Put it inside `RunModelMiddleware`
 * (it retries the run's model) and outside the middlewares that call the model
 * again (terminal response), so their calls are protected too.
 *
 * @param options - `llm_call:` and `circuit_breaker:` settings, fallbacks, logger
 * @returns a `wrapModelCall` middleware
 * @throws {@link AgentError} `CONFIG_INVALID` for fallbacks without `resolveModel`
 */
export function createLlmErrorHandlingMiddleware(options: LlmErrorHandlingOptions = {}): AgentMiddleware {
  const settings = { ...DEFAULT_RETRY_SETTINGS, ...definedOf(options) };
  const maxAttempts = Math.max(1, Math.trunc(settings.retryMaxAttempts));
  const logger = options.logger ?? silentLogger;
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? abortableSleep;
  const breakers = new WeakMap<object, CircuitBreaker>();
  const breakerOf = (model: object): CircuitBreaker => {
    let breaker = breakers.get(model);
    if (breaker === undefined) breakers.set(model, (breaker = new CircuitBreaker(options.circuitBreaker, options.now)));
    return breaker;
  };
  const fallbackNames = options.fallbackModels ?? [];
  if (fallbackNames.length > 0 && options.resolveModel === undefined) {
    throw new AgentError("CONFIG_INVALID", "llm_call.fallback_models needs a model resolver", {
      details: { fallbackModels: [...fallbackNames] },
    });
  }
  let fallback: Promise<AgentMiddleware | undefined> | undefined;
  const fallbackMiddleware = (): Promise<AgentMiddleware | undefined> =>
    (fallback ??=
      fallbackNames.length === 0
        ? Promise.resolve(undefined)
        : Promise.all(fallbackNames.map((n) => options.resolveModel!(n))).then((models) =>
            modelFallbackMiddleware(...models),
          ));

  /** One model, with its breaker and retries; throws the last error. */
  const withRetries = async (
    request: Request,
    handler: Handler,
    attempts: { count: number },
  ): Promise<Awaited<ReturnType<Handler>>> => {
    const breaker = breakerOf(request.model);
    const signal = request.runtime.signal;
    let previous = settings.retryBaseDelayMs;
    let burstRetried = false;
    for (let attempt = 1; ; attempt++) {
      const closedIn = breaker.acquire();
      if (closedIn > 0) {
        throw new AgentError("MODEL_UNAVAILABLE", circuitOpenText(breaker.threshold, Math.ceil(closedIn / 1000)), {
          details: { retryInMs: closedIn },
        });
      }
      attempts.count++;
      try {
        const response = await handler(request);
        breaker.succeeded();
        return response;
      } catch (err) {
        const kind = signal?.aborted === true || isGraphBubbleUp(err) ? "fatal" : classifyError(err);
        if (kind === "fatal") {
          breaker.released();
          throw err;
        }
        breaker.failed();
        const retryAfter = retryAfterOf(err);
        if (
          attempt >= maxAttempts ||
          (kind === "rate_limit" && burstRetried) ||
          (retryAfter ?? 0) > settings.maxRetryAfterMs
        )
          throw err;
        let delay: number;
        if (kind === "rate_limit") {
          burstRetried = true;
          delay =
            retryAfter ??
            decorrelatedJitter(
              settings.burstRetryBaseDelayMs,
              {
                retryBaseDelayMs: settings.burstRetryBaseDelayMs,
                retryCapDelayMs: Math.max(settings.retryCapDelayMs, settings.burstRetryBaseDelayMs),
              },
              random,
            );
        } else {
          previous = decorrelatedJitter(previous, settings, random);
          delay = retryAfter ?? previous;
        }
        logger.warn(
          { attempt, maxAttempts, kind, delayMs: Math.round(delay), err: describeError(err) },
          "model call failed; retrying",
        );
        await sleep(delay, signal);
        if (signal?.aborted === true) throw err;
      }
    }
  };

  return createMiddleware({
    name: "LlmErrorHandlingMiddleware",
    wrapModelCall: async (request, handler) => {
      // The model's own retries would multiply ours (ChatOpenAI honours maxRetries per call).
      const delegated = { ...request, modelSettings: { maxRetries: 0, ...request.modelSettings } };
      const attempts = { count: 0 };
      const call = (r: Request): ReturnType<Handler> => withRetries(r, handler, attempts);
      try {
        const fallbacks = await fallbackMiddleware();
        return await (fallbacks?.wrapModelCall === undefined
          ? call(delegated)
          : fallbacks.wrapModelCall(delegated, call));
      } catch (err) {
        if (request.runtime.signal?.aborted === true || isGraphBubbleUp(err)) throw err;
        logger.error(
          { attempts: attempts.count, err: describeError(err) },
          "model call failed after retries; answering with an error message",
        );
        const text =
          AgentError.isInstance(err) && err.code === "MODEL_UNAVAILABLE"
            ? err.message
            : modelFailedText(describeError(err), attempts.count);
        return new AIMessage({ content: text, response_metadata: { finish_reason: "error" } });
      }
    },
  });
}

/** The retry settings that are set (an explicit `undefined` must not erase a default). */
function definedOf(options: RetrySettings): RetrySettings {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => typeof v === "number")) as RetrySettings;
}
