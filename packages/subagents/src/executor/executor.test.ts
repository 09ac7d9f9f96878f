import { AIMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { tool, type StructuredToolInterface } from "@langchain/core/tools";
import { describe, expect, it, vi } from "vitest";
import { SubagentRegistry } from "../registry/registry.js";
import type { SubagentProgress, SubagentTask } from "../types.js";
import { SubagentExecutor } from "./executor.js";
import { selectSubagentTools } from "./tools.js";

const schema = { type: "object", properties: {} };
/** JSON-schema tools are typed as DynamicTool; the executor only needs the interface. */
const asTool = (t: unknown): StructuredToolInterface => t as StructuredToolInterface;
/** `tool()` with a JSON schema, without fighting its zod-oriented overloads. */
const makeTool = (
  fn: (input: unknown, config?: { signal?: AbortSignal | undefined }) => Promise<string>,
  name: string,
): StructuredToolInterface =>
  asTool((tool as unknown as (f: unknown, fields: unknown) => unknown)(fn, { name, description: name, schema }));
const echo = (name: string): StructuredToolInterface => makeTool(async () => `${name} ok`, name);
const task = (id: string, extra: Partial<SubagentTask> = {}): SubagentTask => ({
  id,
  subagentType: "general-purpose",
  description: "do it",
  prompt: `work ${id}`,
  traceId: "trace-1",
  ...extra,
});
const toolThenDone = (toolName: string, id: string, text = "done") =>
  fakeModel()
    .respondWithTools([{ name: toolName, args: {}, id }])
    .respond(new AIMessage(text));

/** A tool that blocks until its run is aborted (and records that it saw the abort). */
function blockingTool(seen: { entered: number; aborted: number }): StructuredToolInterface {
  return makeTool(
    (_input, config) =>
      new Promise<string>((_resolve, reject) => {
        seen.entered += 1;
        config?.signal?.addEventListener(
          "abort",
          () => {
            seen.aborted += 1;
            reject(new Error("aborted"));
          },
          { once: true },
        );
      }),
    "block",
  );
}

describe("SubagentExecutor", () => {
  it("never runs more than maxConcurrent tasks and starts queued ones in FIFO order", async () => {
    let running = 0;
    let peak = 0;
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const slow = makeTool(async () => {
      running += 1;
      peak = Math.max(peak, running);
      await gate;
      running -= 1;
      return "slow ok";
    }, "slow");
    const executor = new SubagentExecutor({ registry: new SubagentRegistry(), maxConcurrent: 3 });
    const started: string[] = [];
    const runs = Array.from({ length: 8 }, (_, i) =>
      executor.execute(
        task(`t${i}`),
        { model: toolThenDone("slow", `call-${i}`), tools: [slow] },
        {
          onProgress: (e) => {
            if (e.kind === "started") started.push(e.taskId);
          },
        },
      ),
    );
    await vi.waitFor(() => expect(running).toBe(3));
    expect(executor.running).toBe(3);
    expect(executor.pending).toBe(5);
    expect(executor.store.get("t7")?.status).toBe("pending");
    open();
    const results = await Promise.all(runs);
    expect(peak).toBe(3);
    expect(results.map((r) => r.status)).toEqual(Array(8).fill("completed"));
    expect(started).toEqual(["t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7"]);
    expect(executor.store.size).toBe(0);
  });

  it("reports progress in order with 1-based indices and cumulative usage", async () => {
    const usage = (n: number) => ({ input_tokens: n, output_tokens: n, total_tokens: 2 * n });
    const withUsage = (m: AIMessage, n: number): AIMessage => {
      (m as { usage_metadata?: unknown }).usage_metadata = usage(n);
      return m;
    };
    const model = fakeModel()
      .respond(
        withUsage(
          new AIMessage({
            content: "",
            id: "ai-1",
            tool_calls: [{ name: "ls", args: {}, id: "call-1", type: "tool_call" }],
          }),
          1,
        ),
      )
      .respond(withUsage(new AIMessage({ content: "final answer", id: "ai-2" }), 2));
    const events: SubagentProgress[] = [];
    const result = await new SubagentExecutor({ registry: new SubagentRegistry() }).execute(
      task("p1"),
      { model, tools: [echo("ls")] },
      { onProgress: (e) => events.push(e) },
    );
    expect(events.map((e) => (e.kind === "message" ? `${e.index}:${e.message.type}` : e.kind))).toEqual([
      "started",
      "1:ai",
      "2:tool",
      "3:ai",
    ]);
    const last = events.at(-1);
    expect(last?.kind === "message" && last.usage).toEqual({ inputTokens: 3, outputTokens: 3, totalTokens: 6 });
    expect(result).toMatchObject({ status: "completed", result: "final answer", usage: { totalTokens: 6 } });
    expect(result.messages).toHaveLength(3);
    expect(ToolMessage.isInstance(result.messages[1])).toBe(true);
  });

  it("times out, aborting an in-flight tool through its config.signal", async () => {
    const seen = { entered: 0, aborted: 0 };
    const registry = new SubagentRegistry({
      config: { customAgents: { slowpoke: { description: "slow", systemPrompt: "Be slow.", timeoutMs: 1000 } } },
    });
    const result = await new SubagentExecutor({ registry }).execute(task("to1", { subagentType: "slowpoke" }), {
      model: toolThenDone("block", "call-1"),
      tools: [blockingTool(seen)],
    });
    expect(seen).toEqual({ entered: 1, aborted: 1 });
    expect(result).toMatchObject({ status: "timed_out", error: "Execution timed out after 1 seconds" });
  });

  it("cancels every running and queued task when the parent signal aborts", async () => {
    const seen = { entered: 0, aborted: 0 };
    const parent = new AbortController();
    const executor = new SubagentExecutor({ registry: new SubagentRegistry(), maxConcurrent: 2 });
    const runs = Array.from({ length: 5 }, (_, i) =>
      executor.execute(task(`c${i}`), {
        model: toolThenDone("block", `call-${i}`),
        tools: [blockingTool(seen)],
        signal: parent.signal,
      }),
    );
    await vi.waitFor(() => expect(seen.entered).toBe(2));
    expect(executor.pending).toBe(3);
    parent.abort();
    const results = await Promise.all(runs);
    expect(results.map((r) => [r.status, r.error])).toEqual(Array(5).fill(["cancelled", "Cancelled by user"]));
    expect(seen).toEqual({ entered: 2, aborted: 2 });
    expect(executor.running).toBe(0);
  });

  it("cancels running and queued tasks on shutdown", async () => {
    const seen = { entered: 0, aborted: 0 };
    const executor = new SubagentExecutor({ registry: new SubagentRegistry(), maxConcurrent: 1 });
    const runs = [0, 1].map((i) =>
      executor.execute(task(`s${i}`), { model: toolThenDone("block", `call-${i}`), tools: [blockingTool(seen)] }),
    );
    await vi.waitFor(() => expect(seen.entered).toBe(1));
    executor.shutdown();
    expect((await Promise.all(runs)).map((r) => r.status)).toEqual(["cancelled", "cancelled"]);
  });

  it("never gives the subagent the task tool even when the parent has it", async () => {
    const model = fakeModel().respond(new AIMessage("done"));
    const bound: string[][] = [];
    const original = model.bindTools.bind(model);
    vi.spyOn(model, "bindTools").mockImplementation((tools) => {
      bound.push(tools.map((t) => (t as { name: string }).name));
      return original(tools);
    });
    const result = await new SubagentExecutor({ registry: new SubagentRegistry() }).execute(task("r1"), {
      model,
      tools: [echo("task"), echo("ls"), echo("present_files")],
    });
    expect(result.status).toBe("completed");
    expect(bound.length).toBeGreaterThan(0);
    for (const names of bound) expect(names).toEqual(["ls"]);
  });

  it("fails a subagent whose model throws while its siblings complete", async () => {
    const executor = new SubagentExecutor({ registry: new SubagentRegistry() });
    const parent = (model: ReturnType<typeof fakeModel>) => ({ model, tools: [echo("ls")] });
    const results = await Promise.all([
      executor.execute(task("f0"), parent(toolThenDone("ls", "call-a"))),
      executor.execute(task("f1"), parent(fakeModel().respond(new Error("model exploded")))),
      executor.execute(task("f2"), parent(toolThenDone("ls", "call-b", "sibling done"))),
    ]);
    expect(results.map((r) => r.status)).toEqual(["completed", "failed", "completed"]);
    expect(results[1]?.error).toContain("model exploded");
    expect(results[2]?.result).toBe("sibling done");
  });

  it("fails with Reached max_turns when the turn limit hits without partial text", async () => {
    const call = (id: string) =>
      new AIMessage({ content: "", id: `ai-${id}`, tool_calls: [{ name: "ls", args: {}, id, type: "tool_call" }] });
    const model = fakeModel().respond(call("c1")).respond(call("c2")).respond(call("c3")).respond(call("c4"));
    const result = await new SubagentExecutor({ registry: new SubagentRegistry() }).execute(
      task("m1", { maxTurns: 3 }),
      { model, tools: [echo("ls")] },
    );
    expect(result).toMatchObject({ status: "failed", error: "Reached max_turns=3" });
  });

  it("completes with the partial AI text when the turn limit hits", async () => {
    const call = (id: string) =>
      new AIMessage({
        content: `step ${id}`,
        id: `ai-${id}`,
        tool_calls: [{ name: "ls", args: {}, id, type: "tool_call" }],
      });
    const model = fakeModel().respond(call("c1")).respond(call("c2")).respond(call("c3")).respond(call("c4"));
    const result = await new SubagentExecutor({ registry: new SubagentRegistry() }).execute(
      task("m2", { maxTurns: 3 }),
      { model, tools: [echo("ls")] },
    );
    expect(result.status).toBe("completed");
    expect(result.result).toMatch(/^step c/);
  });

  it("runs a custom subagent with a resolved model and its allow-list", async () => {
    const named = toolThenDone("read_file", "call-1", "reviewed");
    const registry = new SubagentRegistry({
      config: {
        customAgents: {
          reviewer: {
            description: "Reviews",
            systemPrompt: "You review.",
            tools: ["read_file", "task"],
            model: "fast",
          },
        },
      },
    });
    const resolveModel = vi.fn(() => named);
    const result = await new SubagentExecutor({ registry, resolveModel }).execute(
      task("cu1", { subagentType: "reviewer" }),
      {
        model: fakeModel(),
        tools: [echo("read_file"), echo("bash"), echo("task")],
      },
    );
    expect(resolveModel).toHaveBeenCalledWith("fast");
    expect(result).toMatchObject({ status: "completed", result: "reviewed", modelName: "fast" });
    const firstCall = named.calls[0];
    expect(firstCall?.messages[0]?.text).toBe("You review.");
  });

  it("fails when a named model cannot be resolved", async () => {
    const registry = new SubagentRegistry({
      config: { customAgents: { reviewer: { description: "Reviews", systemPrompt: "You review.", model: "missing" } } },
    });
    const result = await new SubagentExecutor({ registry }).execute(task("cu2", { subagentType: "reviewer" }), {
      model: fakeModel(),
      tools: [],
    });
    expect(result).toMatchObject({
      status: "failed",
      error: "Model 'missing' of subagent 'reviewer' is not available",
    });
  });

  it("fails an unknown subagent type with the available names", async () => {
    const result = await new SubagentExecutor({ registry: new SubagentRegistry() }).execute(
      task("u1", { subagentType: "nope" }),
      { model: fakeModel(), tools: [] },
    );
    expect(result).toMatchObject({
      status: "failed",
      error: "Unknown subagent type 'nope'. Available: general-purpose",
    });
  });

  it("completes with the default text when the subagent says nothing", async () => {
    const result = await new SubagentExecutor({ registry: new SubagentRegistry() }).execute(task("e1"), {
      model: fakeModel().respond(new AIMessage("")),
      tools: [],
    });
    expect(result).toMatchObject({ status: "completed", result: "No response generated" });
  });

  it("puts the trace id in every log line", async () => {
    const lines: Record<string, unknown>[] = [];
    const record = (obj: Record<string, unknown>): void => {
      lines.push(obj);
    };
    const logger = { debug: record, info: record, warn: record, error: record };
    await new SubagentExecutor({ registry: new SubagentRegistry(), logger }).execute(task("l1"), {
      model: fakeModel().respond(new Error("x")),
      tools: [],
    });
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) expect(line["traceId"]).toBe("trace-1");
  });

  it("rejects maxConcurrent below 1", () => {
    expect(() => new SubagentExecutor({ registry: new SubagentRegistry(), maxConcurrent: 0 })).toThrow(/maxConcurrent/);
  });
});

describe("selectSubagentTools", () => {
  it("applies the allow-list, then the deny-list, and always drops task", () => {
    const tools = [echo("task"), echo("bash"), echo("ls"), echo("grep")];
    const config = {
      name: "x",
      description: "x",
      tools: ["task", "bash", "ls"],
      disallowedTools: ["bash"],
      model: "inherit",
      maxTurns: 5,
      timeoutMs: 1000,
    };
    expect(selectSubagentTools(config, tools).map((t) => t.name)).toEqual(["ls"]);
  });
});
