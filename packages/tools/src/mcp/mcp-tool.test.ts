import { AsyncLocalStorage } from "node:async_hooks";
import { CallbackManager } from "@langchain/core/callbacks/manager";
import { ToolMessage } from "@langchain/core/messages";
import { RunnableLambda } from "@langchain/core/runnables";
import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";
import type { RunnableConfig } from "@langchain/core/runnables";
import { ToolInputParsingException } from "@langchain/core/tools";
import type { JSONSchema } from "@langchain/core/utils/json_schema";
import { describe, expect, it, vi } from "vitest";
import { McpTool, type McpToolRunner } from "./mcp-tool.js";

const schema: JSONSchema = {
  type: "object",
  properties: { message: { type: "string" }, count: { type: "integer", minimum: 1 } },
  required: ["message"],
};

function echoTool(overrides: { schema?: JSONSchema; run?: McpToolRunner } = {}) {
  const calls: { args: Record<string, unknown>; config: RunnableConfig }[] = [];
  const tool = new McpTool({
    name: "srv_echo",
    description: "Echoes.",
    schema: overrides.schema ?? schema,
    metadata: { mcp: { server: "srv", tool: "echo" } },
    run:
      overrides.run ??
      (async (args, config) => {
        calls.push({ args, config });
        return [`Echo: ${String(args["message"])}`, { server: "srv", tool: "echo" }];
      }),
  });
  return { tool, calls };
}

const call = (args: Record<string, unknown>, id = "call_1") => ({
  type: "tool_call" as const,
  id,
  name: "srv_echo",
  args,
});

describe("McpTool", () => {
  it("answers a tool call with a ToolMessage carrying the content, the artifact and the run config", async () => {
    const { tool, calls } = echoTool();
    const out = await tool.invoke(call({ message: "hi" }), { configurable: { thread_id: "t1" } });
    expect(ToolMessage.isInstance(out)).toBe(true);
    const message = out as ToolMessage;
    expect(message.content).toBe("Echo: hi");
    expect(message.tool_call_id).toBe("call_1");
    expect(message.name).toBe("srv_echo");
    expect(message.status).toBe("success");
    expect(message.artifact).toEqual({ server: "srv", tool: "echo" });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args).toEqual({ message: "hi" });
    expect(calls[0]?.config.configurable?.["thread_id"]).toBe("t1");
  });

  it("returns the bare content when called without a tool-call id", async () => {
    const { tool } = echoTool();
    expect(await tool.invoke({ message: "plain" })).toBe("Echo: plain");
  });

  it("rejects bad input with an error naming the tool and what is wrong, and never calls the server", async () => {
    const { tool, calls } = echoTool();
    const missing = tool.invoke(call({ count: 2 }));
    await expect(missing).rejects.toBeInstanceOf(ToolInputParsingException);
    await expect(missing).rejects.toThrow(
      "Received tool input did not match expected schema of 'srv_echo': input must have required property 'message'",
    );
    await expect(tool.invoke(call({ message: "x", count: 0 }))).rejects.toThrow("input/count must be >= 1");
    await expect(tool.invoke(call({ message: 7 }))).rejects.toThrow("input/message must be string");
    await expect(tool.call(["not", "an", "object"])).rejects.toThrow("input must be an object, got an array");
    expect(calls).toEqual([]);
  });

  it("reports start, end and error to the run's callbacks, as LangChain's tools do", async () => {
    const events: string[] = [];
    const handler = {
      handleToolStart: (
        _tool: unknown,
        input: string,
        _runId: string,
        _parent?: string,
        _tags?: string[],
        _meta?: unknown,
        runName?: string,
        toolCallId?: string,
      ) => {
        events.push(`start ${runName} ${toolCallId} ${input}`);
      },
      handleToolEnd: (output: unknown) => {
        events.push(`end ${ToolMessage.isInstance(output) ? output.text : String(output)}`);
      },
      handleToolError: (err: Error) => {
        events.push(`error ${err.message}`);
      },
    };
    const { tool } = echoTool();
    await tool.invoke(call({ message: "hi" }, "call_cb"), { callbacks: [handler] });
    const failing = echoTool({
      run: async () => {
        throw new Error("server gone");
      },
    }).tool;
    await expect(failing.invoke(call({ message: "hi" }, "call_err"), { callbacks: [handler] })).rejects.toThrow(
      "server gone",
    );
    expect(events).toEqual([
      'start srv_echo call_cb {"message":"hi"}',
      "end Echo: hi",
      'start srv_echo call_err {"message":"hi"}',
      "error server gone",
    ]);
  });

  it("compiles a schema with an $id for every tool that has it (a reload lists the same schema again)", async () => {
    const withId = { ...schema, $id: "https://example.test/echo-input" } as JSONSchema;
    const first = echoTool({ schema: withId }).tool;
    const second = echoTool({ schema: withId }).tool;
    expect(await first.invoke({ message: "a" })).toBe("Echo: a");
    expect(await second.invoke({ message: "b" })).toBe("Echo: b");
    await expect(second.invoke({ message: 1 })).rejects.toThrow("input/message must be string");
  });

  it("leaves a schema it cannot compile to the server (the call still runs)", async () => {
    const { tool, calls } = echoTool({
      schema: { type: "object", properties: { message: { $ref: "#/nowhere" } } } as JSONSchema,
    });
    expect(await tool.invoke({ message: "still runs" })).toBe("Echo: still runs");
    expect(calls).toHaveLength(1);
  });

  it("skips LangChain's callback setup for a call nothing observes, and runs it when something does", async () => {
    const configure = vi.spyOn(CallbackManager, "configure");
    try {
      const { tool, calls } = echoTool();
      const signal = new AbortController().signal;
      const out = await tool.invoke(call({ message: "fast" }), { configurable: { thread_id: "t9" }, signal });
      expect((out as ToolMessage).content).toBe("Echo: fast");
      expect(configure).not.toHaveBeenCalled();
      expect(calls[0]?.config.signal).toBe(signal);
      expect(calls[0]?.config.configurable?.["thread_id"]).toBe("t9");

      const viaConfig = await tool.invoke(
        { message: "bare" },
        { toolCall: { id: "call_cfg", name: "srv_echo", args: {} } },
      );
      expect((viaConfig as ToolMessage).tool_call_id).toBe("call_cfg");

      // A manager with no handlers observes nothing either; one with a handler does.
      await tool.invoke(call({ message: "empty" }), { callbacks: new CallbackManager() });
      expect(configure).not.toHaveBeenCalled();
      await tool.invoke(call({ message: "seen" }), { callbacks: CallbackManager.fromHandlers({}) });
      expect(configure).toHaveBeenCalled();

      // `timeout` goes through LangChain's config handling, which turns it into a signal for the runner.
      await tool.invoke(call({ message: "timed" }), { timeout: 60_000 });
      expect(calls.at(-1)?.config.signal).toBeInstanceOf(AbortSignal);
    } finally {
      configure.mockRestore();
    }
  });

  it("reports to callbacks handed down as a manager (as a graph does) and to the callbacks of an enclosing run", async () => {
    const events: string[] = [];
    const handler = {
      handleToolStart: (_tool: unknown, input: string) => void events.push(`start ${input}`),
      handleToolEnd: (output: unknown) =>
        void events.push(`end ${ToolMessage.isInstance(output) ? output.text : String(output)}`),
    };
    const { tool } = echoTool();
    await tool.invoke(call({ message: "managed" }), { callbacks: CallbackManager.fromHandlers(handler) });
    // Called without a config inside a runnable: the callbacks come from the run's context, not the arguments
    // (the context LangGraph sets up when it loads).
    AsyncLocalStorageProviderSingleton.initializeGlobalInstance(new AsyncLocalStorage());
    const outer = RunnableLambda.from(async (message: string) => tool.invoke(call({ message })));
    await outer.invoke("nested", { callbacks: [handler] });
    expect(events).toEqual([
      'start {"message":"managed"}',
      "end Echo: managed",
      'start {"message":"nested"}',
      "end Echo: nested",
    ]);
  });
});
