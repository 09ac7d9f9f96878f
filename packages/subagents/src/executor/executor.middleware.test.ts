import { AIMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { tool, type StructuredToolInterface } from "@langchain/core/tools";
import { createMiddleware } from "langchain";
import { describe, expect, it } from "vitest";
import { SubagentRegistry } from "../registry/registry.js";
import type { SubagentTask } from "../types.js";
import { SubagentExecutor } from "./executor.js";
import type { SubagentMiddlewareScope } from "./middleware.js";

const schema = { type: "object", properties: {} };
const makeTool = (
  fn: (input: unknown, config?: { configurable?: Record<string, unknown> }) => Promise<string>,
  name: string,
) =>
  (tool as unknown as (f: unknown, fields: unknown) => unknown)(fn, {
    name,
    description: name,
    schema,
  }) as StructuredToolInterface;
const task = (id: string): SubagentTask => ({
  id,
  subagentType: "general-purpose",
  description: "do it",
  prompt: `work ${id}`,
  traceId: "trace-1",
});
const toolThenDone = (toolName: string, id: string) =>
  fakeModel()
    .respondWithTools([{ name: toolName, args: {}, id }])
    .respond(new AIMessage("done"));

describe("SubagentExecutor middleware", () => {
  it("builds every task's agent with the static list: a tool error becomes the middleware's result", async () => {
    const failing = makeTool(async () => {
      throw new Error("disk on fire");
    }, "explode");
    const toolErrors = createMiddleware({
      name: "ToolErrors",
      wrapToolCall: async (request, handler) => {
        try {
          return await handler(request);
        } catch (err) {
          return new ToolMessage({
            content: `Error: ${(err as Error).message}`,
            tool_call_id: request.toolCall.id ?? "",
            status: "error",
          });
        }
      },
    });
    const executor = new SubagentExecutor({ registry: new SubagentRegistry(), middleware: [toolErrors] });
    const result = await executor.execute(task("t1"), { model: toolThenDone("explode", "c1"), tools: [failing] });
    expect(result.status).toBe("completed");
    const toolResult = result.messages.find((m) => ToolMessage.isInstance(m));
    expect(toolResult?.content).toBe("Error: disk on fire");
  });

  it("calls a factory once per task with its scope, and the run's configurable carries that scope", async () => {
    const scopes: SubagentMiddlewareScope[] = [];
    const seen: Record<string, unknown>[] = [];
    const probe = makeTool(async (_input, config) => {
      seen.push({ ...config?.configurable });
      return "ok";
    }, "probe");
    const executor = new SubagentExecutor({
      registry: new SubagentRegistry(),
      middleware: (scope) => {
        scopes.push(scope);
        return [];
      },
    });
    const result = await executor.execute(task("t2"), {
      model: toolThenDone("probe", "c2"),
      tools: [probe],
      scope: { threadId: "thread-1", userId: "alice", runId: "run-1:task:t2" },
    });
    expect(result.status).toBe("completed");
    expect(scopes).toHaveLength(1);
    expect(scopes[0]).toMatchObject({ threadId: "thread-1", userId: "alice", runId: "run-1:task:t2" });
    expect(scopes[0]?.task.id).toBe("t2");
    expect(scopes[0]?.subagent.name).toBe("general-purpose");
    expect(scopes[0]?.signal).toBeInstanceOf(AbortSignal);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ thread_id: "thread-1", user_id: "alice", run_id: "run-1:task:t2" });
  });

  it("fails the task (a result, not a throw) when the factory throws", async () => {
    const executor = new SubagentExecutor({
      registry: new SubagentRegistry(),
      middleware: () => {
        throw new Error("no chain for you");
      },
    });
    const result = await executor.execute(task("t3"), { model: fakeModel().respond(new AIMessage("x")), tools: [] });
    expect(result).toMatchObject({ status: "failed", error: "no chain for you" });
  });

  it("fails the task when the last answer is a model-failure answer (finish_reason error)", async () => {
    const executor = new SubagentExecutor({ registry: new SubagentRegistry() });
    const answer = new AIMessage({
      content: "The model failed after 3 attempts: 500",
      response_metadata: { finish_reason: "error" },
    });
    const failed = await executor.execute(task("t4"), { model: fakeModel().respond(answer), tools: [] });
    expect(failed).toMatchObject({ status: "failed", error: "The model failed after 3 attempts: 500" });
    const fine = await executor.execute(task("t5"), {
      model: fakeModel().respond(new AIMessage("Error: looks like an error, but is an answer")),
      tools: [],
    });
    expect(fine.status).toBe("completed");
  });
});
