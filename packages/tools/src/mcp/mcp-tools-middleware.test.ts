import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { DynamicStructuredTool, type StructuredToolInterface } from "@langchain/core/tools";
import { describe, expect, it } from "vitest";
import type { McpToolset } from "./mcp-toolset.js";
import { createMcpToolsMiddleware, estimateToolTokens } from "./mcp-tools-middleware.js";
import { catalogHash } from "./tool-search.js";

const make = (name: string, description = `does ${name}`): StructuredToolInterface =>
  new DynamicStructuredTool({
    name,
    description,
    schema: { type: "object", properties: { q: { type: "string" } } },
    metadata: { mcp: { server: "s", tool: name } },
    func: async () => `ran ${name}`,
  });

const fakeToolset = (tools: StructuredToolInterface[] | Error) =>
  ({
    tools: async () => {
      if (tools instanceof Error) throw tools;
      return tools;
    },
    loadedTools: () => undefined,
  }) as unknown as McpToolset;

interface SeenRequest {
  tools: { name: string }[];
  systemPrompt: string;
}

type Hook = (request: unknown, handler: (r: unknown) => unknown) => Promise<unknown>;

async function modelCall(
  middleware: ReturnType<typeof createMcpToolsMiddleware>,
  messages: unknown[] = [new HumanMessage("hi")],
): Promise<SeenRequest> {
  let seen: SeenRequest | undefined;
  await (middleware.wrapModelCall as unknown as Hook)(
    { tools: [make("builtin")], messages, systemPrompt: "base" },
    (r) => {
      seen = r as SeenRequest;
      return new AIMessage("ok");
    },
  );
  return seen!;
}

describe("McpToolsMiddleware", () => {
  const mcp = [make("s_a"), make("s_b")];

  it("offers every MCP tool after the agent's own when deferral is off", async () => {
    const seen = await modelCall(createMcpToolsMiddleware({ toolset: fakeToolset(mcp) }));
    expect(seen.tools.map((t) => t.name)).toEqual(["builtin", "s_a", "s_b"]);
    expect(seen.systemPrompt).toBe("base");
  });

  it("with tool_search enabled offers tool_search and the deferred list, then the promoted tools of this catalog only", async () => {
    const middleware = createMcpToolsMiddleware({ toolset: fakeToolset(mcp), toolSearch: { enabled: true } });
    const first = await modelCall(middleware);
    expect(first.tools.map((t) => t.name)).toEqual(["builtin", "tool_search"]);
    expect(first.systemPrompt).toBe("base\n\n<available-deferred-tools>\ns_a\ns_b\n</available-deferred-tools>");

    const promoted = (hash: string) => [
      new HumanMessage("hi"),
      new AIMessage({ content: "", tool_calls: [{ id: "c1", name: "tool_search", args: { query: "select:s_b" } }] }),
      new ToolMessage({
        content: "[]",
        tool_call_id: "c1",
        name: "tool_search",
        artifact: { catalogHash: hash, names: ["s_b"] },
      }),
    ];
    expect((await modelCall(middleware, promoted(catalogHash(mcp)))).tools.map((t) => t.name)).toEqual([
      "builtin",
      "tool_search",
      "s_b",
    ]);
    expect((await modelCall(middleware, promoted("0000000000000000"))).tools.map((t) => t.name)).toEqual([
      "builtin",
      "tool_search",
    ]);
  });

  it("never offers an MCP tool whose name the agent already uses (that would replace the agent's tool)", async () => {
    const seen = await modelCall(createMcpToolsMiddleware({ toolset: fakeToolset([make("builtin"), make("s_a")]) }));
    expect(seen.tools.map((t) => t.name)).toEqual(["builtin", "s_a"]);
  });

  it("defers automatically above the token budget", async () => {
    const budget = estimateToolTokens(mcp) - 1;
    const seen = await modelCall(
      createMcpToolsMiddleware({ toolset: fakeToolset(mcp), toolSearch: { autoTokenBudget: budget } }),
    );
    expect(seen.tools.map((t) => t.name)).toEqual(["builtin", "tool_search"]);
    const under = await modelCall(
      createMcpToolsMiddleware({ toolset: fakeToolset(mcp), toolSearch: { autoTokenBudget: budget + 1 } }),
    );
    expect(under.tools.map((t) => t.name)).toEqual(["builtin", "s_a", "s_b"]);
  });

  it("runs calls to its tools (and tool_search); other calls pass through", async () => {
    const middleware = createMcpToolsMiddleware({ toolset: fakeToolset(mcp), toolSearch: { enabled: true } });
    const hook = middleware.wrapToolCall as unknown as Hook;
    const toolOf = async (name: string) => {
      let tool: unknown = "unset";
      await hook({ toolCall: { id: "1", name, args: {} }, tool: undefined }, (r) => {
        tool = (r as { tool?: { name: string } }).tool;
        return new ToolMessage({ content: "", tool_call_id: "1" });
      });
      return (tool as { name?: string } | undefined)?.name;
    };
    expect(await toolOf("s_a")).toBe("s_a");
    expect(await toolOf("tool_search")).toBe("tool_search");
    expect(await toolOf("unknown")).toBeUndefined();
  });

  it("runs a tool call against the loaded tools without checking the source again (no file read per call)", async () => {
    let checks = 0;
    const loaded = [make("s_a")];
    const toolset = {
      tools: async () => {
        checks += 1;
        return loaded;
      },
      loadedTools: () => loaded,
    } as unknown as McpToolset;
    const hook = createMcpToolsMiddleware({ toolset }).wrapToolCall as unknown as Hook;
    let ran: string | undefined;
    await hook({ toolCall: { id: "1", name: "s_a", args: {} }, tool: undefined }, (r) => {
      ran = (r as { tool?: { name: string } }).tool?.name;
      return new ToolMessage({ content: "", tool_call_id: "1" });
    });
    expect(ran).toBe("s_a");
    expect(checks).toBe(0);
  });

  it("a toolset that cannot load leaves the model call without MCP tools instead of failing it", async () => {
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, error() {}, warn: (_: unknown, m: string) => warnings.push(m) };
    const seen = await modelCall(createMcpToolsMiddleware({ toolset: fakeToolset(new Error("bad file")), logger }));
    expect(seen.tools.map((t) => t.name)).toEqual(["builtin"]);
    expect(warnings).toEqual(["MCP tools unavailable for this model call: bad file"]);
  });
});
