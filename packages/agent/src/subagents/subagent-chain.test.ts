import { SubagentRegistry } from "@deerflow/subagents";
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { tool, type StructuredToolInterface } from "@langchain/core/tools";
import { MemorySaver } from "@langchain/langgraph";
import { createMiddleware } from "langchain";
import { describe, expect, it } from "vitest";
import { LEAD_CHAIN } from "../chain/lead-chain.js";
import { LOOP_FORCED_STOP_TEXT, LOOP_WARNING_TEXT } from "../middleware/loop-detection/texts.js";
import { createLeadAgent, staticModels, type LeadAgentOptions } from "../index.js";
import { countingProvider, localProvider } from "../../test/support/fixtures.js";
import { SUBAGENT_CHAIN, selectChainEntries } from "./subagent-chain.js";

const schema = { type: "object", properties: {} } as const;
const delegate = (id = "task_1") => ({
  name: "task",
  id,
  args: { description: "sub work", prompt: "do the sub work", subagent_type: "general-purpose" },
});
const registry = () => new SubagentRegistry({ config: { timeoutMs: 60_000 } });
/** Fast retries, so a transient failure costs milliseconds. */
const fastRetries: LeadAgentOptions["middleware"] = {
  llmErrorHandling: { retryBaseDelayMs: 1, retryCapDelayMs: 2, burstRetryBaseDelayMs: 1 },
};

async function runOnce(options: LeadAgentOptions, threadId: string) {
  const agent = await createLeadAgent({ checkpointer: new MemorySaver(), ...options });
  const cfg = { configurable: { thread_id: threadId, run_id: `run-${threadId}` } };
  await agent.invoke({ messages: [new HumanMessage("delegate it")] }, cfg);
  const state = await agent.graph.getState(cfg);
  return state.values.messages as BaseMessage[];
}

/** The tool results the model saw in its n-th call. */
const toolResultsSeen = (model: ReturnType<typeof fakeModel>, call: number) =>
  ((model.calls[call]?.messages ?? []) as BaseMessage[]).filter((m): m is ToolMessage => ToolMessage.isInstance(m));

describe("SUBAGENT_CHAIN", () => {
  it("is DeerFlow's rows 1-4 and 6-13 of the lead chain and its subagent tail, in the lead's order, with no lead-only entry", () => {
    const names = SUBAGENT_CHAIN.map((e) => e.name);
    expect(names).toEqual([
      "ToolErrorHandlingMiddleware",
      "InputSanitizationMiddleware",
      "ToolOutputBudgetMiddleware",
      "ToolResultSanitizationMiddleware",
      "McpToolsMiddleware",
      "AuthorizationMiddleware",
      "SandboxMiddleware",
      "DanglingToolCallMiddleware",
      "LlmErrorHandlingMiddleware",
      "GuardrailMiddleware",
      "ReadBeforeWriteMiddleware",
      "SummarizationMiddleware",
      "LoopDetectionMiddleware",
      "TokenBudgetMiddleware",
      "SafetyFinishReasonMiddleware",
    ]);
    for (const leadOnly of [
      "UploadsMiddleware",
      "TitleMiddleware",
      "PlanModeMiddleware",
      "ClarificationMiddleware",
      "SubagentLimitMiddleware",
      "RunModelMiddleware",
    ]) {
      expect(names).not.toContain(leadOnly);
    }
    // The very entries of the lead chain: one definition each (the MCP and authorization entries restricted around the lead's).
    for (const entry of SUBAGENT_CHAIN.filter(
      (e) => e.name !== "McpToolsMiddleware" && e.name !== "AuthorizationMiddleware",
    ))
      expect(LEAD_CHAIN).toContain(entry);
  });

  it("refuses a name the chain does not have (a renamed entry cannot drop out silently)", () => {
    expect(() => selectChainEntries(LEAD_CHAIN, new Set(["NoSuchMiddleware"]))).toThrow(
      expect.objectContaining({ code: "CONFIG_INVALID" }),
    );
  });
});

describe("subagents run the runtime chain", () => {
  it("turns a subagent's tool exception into an error result the subagent's model reads", async () => {
    const explode = tool(
      async () => {
        throw new TypeError("disk on fire");
      },
      { name: "explode", description: "Fails.", schema },
    );
    // One model: lead, then subagent (inherit), then lead again.
    const model = fakeModel()
      .respondWithTools([delegate()])
      .respondWithTools([{ name: "explode", id: "call_x", args: {} }])
      .respond(new AIMessage("The tool failed; reported."))
      .respond(new AIMessage("Done."));
    const messages = await runOnce(
      { models: staticModels({ fake: model }), tools: [explode], subagents: { registry: registry() } },
      "t-sub-err",
    );
    const [seen] = toolResultsSeen(model, 2);
    expect(seen?.status).toBe("error");
    expect(seen?.text).toMatch(/^Error: Tool 'explode' failed with TypeError: disk on fire/);
    const taskResult = messages.find((m): m is ToolMessage => ToolMessage.isInstance(m) && m.name === "task");
    expect(taskResult?.text).toBe("Task Succeeded. Result: The tool failed; reported.");
  });

  it("budgets a subagent's huge tool output: saved in the thread's sandbox, a synopsis reaches its model", async () => {
    const huge = "row,value\n" + "x".repeat(200_000);
    const dump = tool(async () => huge, { name: "dump", description: "Dumps.", schema });
    const model = fakeModel()
      .respondWithTools([delegate()])
      .respondWithTools([{ name: "dump", id: "call_d", args: {} }])
      .respond(new AIMessage("Summarised."))
      .respond(new AIMessage("Done."));
    const provider = await localProvider();
    await runOnce(
      {
        models: staticModels({ fake: model }),
        sandboxProvider: provider,
        tools: [dump],
        subagents: { registry: registry() },
      },
      "t-sub-budget",
    );
    const [seen] = toolResultsSeen(model, 2);
    expect(seen).toBeDefined();
    expect(seen!.text.length).toBeLessThan(12_000);
    const saved = /\/mnt\/user-data\/outputs\/\.tool-results\/[^\s`"');]+/.exec(seen!.text)?.[0];
    expect(saved).toBeDefined();
    // Saved in the same thread's sandbox as the lead's.
    const sandbox = await provider.acquire("t-sub-budget");
    try {
      expect(await sandbox.readFile(saved!)).toBe(huge);
    } finally {
      await provider.release(sandbox.id);
    }
  });

  it("retries a subagent's transient model error and completes the task", async () => {
    const model = fakeModel()
      .respondWithTools([delegate()])
      .respond(Object.assign(new Error("upstream 500"), { status: 500 }))
      .respond(new AIMessage("Sub answer after a retry."))
      .respond(new AIMessage("Done."));
    const messages = await runOnce(
      { models: staticModels({ fake: model }), subagents: { registry: registry() }, middleware: fastRetries },
      "t-sub-retry",
    );
    expect(model.calls).toHaveLength(4);
    const taskResult = messages.find((m): m is ToolMessage => ToolMessage.isInstance(m) && m.name === "task");
    expect(taskResult?.text).toBe("Task Succeeded. Result: Sub answer after a retry.");
    expect(taskResult?.additional_kwargs["subagent_status"]).toBe("completed");
  });

  it("shares the thread's sandbox session with the lead and releases every lease when the run ends", async () => {
    const provider = countingProvider();
    // After the task, the lead uses the sandbox again: its lease must still be held.
    const model = fakeModel()
      .respondWithTools([delegate()])
      .respond(new AIMessage("Sub done."))
      .respondWithTools([{ name: "ls", id: "call_ls", args: { description: "list", path: "/mnt/user-data" } }])
      .respond(new AIMessage("Done."));
    await runOnce(
      { models: staticModels({ fake: model }), sandboxProvider: provider, subagents: { registry: registry() } },
      "t-sub-share",
    );
    // One acquisition for lead and subagent together, released once both are done.
    expect(provider.log.events).toEqual(["acquire fake:default:t-sub-share", "release fake:default:t-sub-share"]);
    expect(provider.log.held.size).toBe(0);
  });

  it("warns a subagent that repeats one tool call, then stops it (DeerFlow's subagent tail: loop detection)", async () => {
    let polls = 0;
    const poll = tool(
      async () => {
        polls++;
        return "not ready yet";
      },
      { name: "poll", description: "Polls.", schema },
    );
    const again = { name: "poll", id: "call_p", args: {} };
    // Lead delegates; the subagent polls five times with the same call; the lead finishes.
    const model = fakeModel()
      .respondWithTools([delegate()])
      .respondWithTools([{ ...again, id: "p1" }])
      .respondWithTools([{ ...again, id: "p2" }])
      .respondWithTools([{ ...again, id: "p3" }])
      .respondWithTools([{ ...again, id: "p4" }])
      .respondWithTools([{ ...again, id: "p5" }])
      .respond(new AIMessage("Done."));
    const messages = await runOnce(
      { models: staticModels({ fake: model }), tools: [poll], subagents: { registry: registry() } },
      "t-sub-loop",
    );
    // The third repeat queues the warning, shown to the subagent's model at its next call.
    const fourthSubagentCall = (model.calls[4]?.messages ?? []) as BaseMessage[];
    expect(fourthSubagentCall.some((m) => m.text.includes(LOOP_WARNING_TEXT))).toBe(true);
    // The fifth repeat is stripped: four polls ran, and the task ends with the forced-stop text.
    expect(polls).toBe(4);
    const taskResult = messages.find((m): m is ToolMessage => ToolMessage.isInstance(m) && m.name === "task");
    expect(taskResult?.text).toContain(LOOP_FORCED_STOP_TEXT);
    expect(model.calls).toHaveLength(7);
  });

  it("withholds tools that need human approval from subagents (they cannot pause for a human)", async () => {
    const ran: string[] = [];
    const deploy = tool(
      async () => {
        ran.push("deploy");
        return "deployed";
      },
      { name: "deploy", description: "Deploys.", schema },
    );
    const model = fakeModel()
      .respondWithTools([delegate()])
      .respondWithTools([{ name: "deploy", id: "call_dep", args: {} }])
      .respond(new AIMessage("Could not deploy."))
      .respond(new AIMessage("Done."));
    await runOnce(
      {
        models: staticModels({ fake: model }),
        tools: [deploy],
        subagents: { registry: registry() },
        middleware: { guardrails: { requireApproval: ["deploy"] } },
      },
      "t-sub-approval",
    );
    expect(ran).toEqual([]);
    const [seen] = toolResultsSeen(model, 2);
    expect(seen?.status).toBe("error");
  });
});

/**
 * A stand-in for `@deerflow/tools`' McpToolsMiddleware (same contract): adds its tools to every model
 * call and runs the calls to them itself, so the agent never had them at compile time.
 */
function fakeMcpMiddleware(names: readonly string[], ran: string[]) {
  const tools = new Map<string, StructuredToolInterface>(
    names.map((name) => [
      name,
      tool(
        async () => {
          ran.push(name);
          return `${name} done`;
        },
        { name, description: `MCP ${name}.`, schema },
      ),
    ]),
  );
  return createMiddleware({
    name: "McpToolsMiddleware",
    wrapModelCall: (request, handler) => handler({ ...request, tools: [...request.tools, ...tools.values()] }),
    wrapToolCall: (request, handler) => {
      const mcp = request.tool === undefined ? tools.get(request.toolCall.name) : undefined;
      return handler(mcp === undefined ? request : { ...request, tool: mcp });
    },
  });
}

/** Records the tool names bound for each model call (the lead and an `inherit` subagent share the model). */
function recordBoundTools(model: ReturnType<typeof fakeModel>): string[][] {
  const bound: string[][] = [];
  const bindTools = model.bindTools.bind(model);
  model.bindTools = ((tools: { name?: string }[], ...rest: unknown[]) => {
    bound.push(tools.map((t) => t.name ?? "").filter((n) => n !== ""));
    return (bindTools as (...a: unknown[]) => unknown)(tools, ...rest);
  }) as typeof model.bindTools;
  return bound;
}

describe("subagents and the MCP tools", () => {
  it("never offers nor runs an approval-gated MCP tool in a subagent, while the lead is still offered it", async () => {
    const ran: string[] = [];
    const model = fakeModel()
      .respondWithTools([delegate()])
      .respondWithTools([{ name: "fs_delete", id: "call_del", args: {} }])
      .respondWithTools([{ name: "fs_read", id: "call_read", args: {} }])
      .respond(new AIMessage("Could not delete; read it."))
      .respond(new AIMessage("Done."));
    const bound = recordBoundTools(model);
    await runOnce(
      {
        models: staticModels({ fake: model }),
        subagents: { registry: registry() },
        middleware: {
          mcpTools: fakeMcpMiddleware(["fs_delete", "fs_read"], ran),
          guardrails: { requireApproval: ["fs_delete"] },
        },
      },
      "t-sub-mcp-approval",
    );
    expect(bound[0]).toEqual(expect.arrayContaining(["task", "fs_delete", "fs_read"]));
    for (const subagentCall of [1, 2, 3]) {
      expect(bound[subagentCall]).toContain("fs_read");
      expect(bound[subagentCall]).not.toContain("fs_delete");
    }
    // The subagent named the gated tool anyway: refused, not run (and the task went on).
    expect(ran).toEqual(["fs_read"]);
    const [refused] = toolResultsSeen(model, 2);
    expect(refused?.status).toBe("error");
    expect(refused?.text).toBe("Error: Tool 'fs_delete' is not available to this agent.");
  });

  it("offers an allowlisted subagent only the MCP tools on its list (and runs no other)", async () => {
    const ran: string[] = [];
    const reader = { description: "Reads.", systemPrompt: "You read files.", tools: ["fs_read"] };
    const model = fakeModel()
      .respondWithTools([{ ...delegate(), args: { ...delegate().args, subagent_type: "reader" } }])
      .respondWithTools([{ name: "fs_write", id: "call_w", args: {} }])
      .respondWithTools([{ name: "fs_read", id: "call_r", args: {} }])
      .respond(new AIMessage("Read it."))
      .respond(new AIMessage("Done."));
    const bound = recordBoundTools(model);
    await runOnce(
      {
        models: staticModels({ fake: model }),
        subagents: {
          registry: new SubagentRegistry({ config: { timeoutMs: 60_000, customAgents: { reader } } }),
        },
        middleware: { mcpTools: fakeMcpMiddleware(["fs_read", "fs_write", "web_get"], ran) },
      },
      "t-sub-mcp-allowlist",
    );
    expect(bound[0]).toEqual(expect.arrayContaining(["fs_read", "fs_write", "web_get"]));
    for (const subagentCall of [1, 2, 3]) expect(bound[subagentCall]).toEqual(["fs_read"]);
    expect(ran).toEqual(["fs_read"]);
    const [refused] = toolResultsSeen(model, 2);
    expect(refused?.text).toBe("Error: Tool 'fs_write' is not available to this agent.");
  });
});
