import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { stampRetryable } from "@langchain/core/errors";
import { createAgent, createMiddleware } from "langchain";
import { describe, expect, it } from "vitest";
import { CircuitBreaker } from "./circuit-breaker.js";
import { createLlmErrorHandlingMiddleware, type LlmErrorHandlingOptions } from "./llm-error-handling.js";
import { classifyError, decorrelatedJitter, retryAfterOf } from "./retry-policy.js";

/** An error shaped like the OpenAI SDK's APIError. */
function httpError(status: number, headers: Record<string, string> = {}): Error {
  return Object.assign(new Error(`${status} status code`), { status, headers });
}

function run(model: ReturnType<typeof fakeModel>, options: LlmErrorHandlingOptions = {}) {
  const waits: number[] = [];
  const settings: unknown[] = [];
  const spy = createMiddleware({
    name: "Spy",
    wrapModelCall: (request, handler) => (settings.push(request.modelSettings), handler(request)),
  });
  const agent = createAgent({
    model,
    tools: [],
    middleware: [
      createLlmErrorHandlingMiddleware({ random: () => 0.5, sleep: async (ms) => void waits.push(ms), ...options }),
      spy,
    ],
  });
  return { waits, settings, invoke: () => agent.invoke({ messages: [new HumanMessage("hi")] }) };
}

describe("retry policy", () => {
  it("classifies provider errors: 5xx and dropped connections retry, 429 is a burst, 4xx and marked errors fail", () => {
    expect(classifyError(httpError(503))).toBe("transient");
    expect(classifyError(Object.assign(new Error("reset"), { code: "ECONNRESET" }))).toBe("transient");
    expect(classifyError(httpError(429))).toBe("rate_limit");
    expect(classifyError(httpError(400))).toBe("fatal");
    expect(classifyError(stampRetryable(httpError(503), false))).toBe("fatal");
    expect(classifyError(new TypeError("bug"))).toBe("fatal");
  });

  it("reads Retry-After from LangChain's stamp or the error's headers", () => {
    expect(retryAfterOf(Object.assign(new Error("x"), { retryAfterMs: 1500 }))).toBe(1500);
    expect(retryAfterOf(httpError(429, { "retry-after": "2" }))).toBe(2000);
    expect(retryAfterOf(Object.assign(new Error("x"), { headers: new Headers({ "retry-after": "1" }) }))).toBe(1000);
    expect(retryAfterOf(httpError(500))).toBeUndefined();
  });

  it("decorrelated jitter stays between the base and three times the previous delay, under the cap", () => {
    const s = { retryBaseDelayMs: 1000, retryCapDelayMs: 8000 };
    expect(decorrelatedJitter(1000, s, () => 0)).toBe(1000);
    expect(decorrelatedJitter(1000, s, () => 0.5)).toBe(2000);
    expect(decorrelatedJitter(4000, s, () => 0.99)).toBe(8000);
  });
});

describe("LlmErrorHandlingMiddleware", () => {
  it("retries a transient failure with backoff and answers with the next attempt", async () => {
    const model = fakeModel().respond(httpError(500)).respond(httpError(502)).respond(new AIMessage("recovered"));
    const { waits, settings, invoke } = run(model);
    const result = await invoke();
    expect(result.messages.at(-1)?.content).toBe("recovered");
    expect(model.calls).toHaveLength(3);
    expect(waits).toEqual([2000, 3500]);
    // The model's own retries are off under the middleware, so they never multiply ours.
    expect(settings).toEqual([{ maxRetries: 0 }, { maxRetries: 0 }, { maxRetries: 0 }]);
  });

  it("gives a 429 one retry, after its Retry-After", async () => {
    const model = fakeModel()
      .respond(httpError(429, { "retry-after": "1" }))
      .respond(httpError(429, { "retry-after": "1" }))
      .respond(new AIMessage("late"));
    const { waits, invoke } = run(model);
    const result = await invoke();
    expect(waits).toEqual([1000]);
    expect(model.calls).toHaveLength(2);
    expect(String(result.messages.at(-1)?.content)).toMatch(
      /^The model provider could not answer \(Error: 429 status code\) after 2 attempts\./,
    );
  });

  it("turns the final failure into a readable assistant message, and fails a fatal error at once", async () => {
    const model = fakeModel().respond(httpError(401));
    const { waits, invoke } = run(model);
    const last = (await invoke()).messages.at(-1);
    expect(AIMessage.isInstance(last) && last.tool_calls?.length).toBeFalsy();
    expect(last?.content).toBe(
      "The model provider could not answer (Error: 401 status code) after 1 attempt. Nothing was lost: please try again in a moment, or choose a different model.",
    );
    expect(waits).toEqual([]);
  });

  it("tries the configured fallback models once the run's model has failed", async () => {
    const primary = fakeModel().alwaysThrow(httpError(503));
    const backup = fakeModel().respond(new AIMessage("from the backup"));
    const { invoke } = run(primary, {
      retryMaxAttempts: 2,
      fallbackModels: ["backup"],
      resolveModel: async () => backup,
    });
    expect((await invoke()).messages.at(-1)?.content).toBe("from the backup");
    expect(primary.calls).toHaveLength(2);
  });

  it("opens the circuit after the failure threshold and answers at once while it is open", async () => {
    let now = 0;
    const model = fakeModel().alwaysThrow(httpError(503));
    const { invoke } = run(model, {
      retryMaxAttempts: 1,
      circuitBreaker: { failureThreshold: 2, recoveryTimeoutSec: 60 },
      now: () => now,
    });
    await invoke();
    await invoke();
    expect(model.calls).toHaveLength(2);
    const refused = (await invoke()).messages.at(-1)?.content;
    expect(model.calls).toHaveLength(2);
    expect(refused).toBe(
      "The model provider is temporarily unavailable: calls are paused for 60 s after 2 failures in a row. Nothing was lost: please try again shortly, or choose a different model.",
    );
    now = 61_000;
    await invoke();
    expect(model.calls).toHaveLength(3);
  });
});

describe("CircuitBreaker", () => {
  it("lets one trial call through once the recovery timeout has passed; its success closes the circuit", () => {
    let now = 0;
    const breaker = new CircuitBreaker({ failureThreshold: 1, recoveryTimeoutSec: 10 }, () => now);
    expect(breaker.acquire()).toBe(0);
    breaker.failed();
    expect(breaker.acquire()).toBe(10_000);
    now = 10_000;
    expect(breaker.acquire()).toBe(0);
    expect(breaker.acquire()).toBeGreaterThan(0);
    breaker.succeeded();
    expect(breaker.acquire()).toBe(0);
  });
});
