import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { tool } from "@langchain/core/tools";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import {
  AllowlistProvider,
  createGuardrailMiddleware,
  guardrailDeniedText,
  isGuardrailProvider,
  type GuardrailOptions,
  type GuardrailRequest,
} from "../../index.js";

function tracked(name: string) {
  const ran: string[] = [];
  return {
    ran,
    tool: tool(async () => (ran.push(name), `${name} ran`), {
      name,
      description: name,
      schema: { type: "object", properties: {} },
    }),
  };
}

async function callTools(options: GuardrailOptions, names: string[]) {
  const tools = names.map(tracked);
  const model = fakeModel()
    .respondWithTools(names.map((name, i) => ({ name, args: { n: i }, id: `c${i}` })))
    .respond(new AIMessage("done"));
  const agent = createAgent({
    model,
    tools: tools.map((t) => t.tool),
    middleware: [createGuardrailMiddleware(options)],
  });
  const out = await agent.invoke(
    { messages: [new HumanMessage("go")] },
    { configurable: { thread_id: "t9", run_id: "r9" } },
  );
  const results = out.messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));
  return { results, ran: tools.flatMap((t) => t.ran) };
}

describe("AllowlistProvider", () => {
  const at = (toolName: string): GuardrailRequest => ({ toolName, toolInput: {}, timestamp: "" });

  it("denies tools on the denylist and, with an allowlist, every tool not on it", () => {
    const deny = new AllowlistProvider({ deniedTools: ["bash"] });
    expect(deny.evaluate(at("bash"))).toMatchObject({
      allow: false,
      reasons: [{ code: "oap.tool_not_allowed", message: "tool 'bash' is denied" }],
    });
    expect(deny.evaluate(at("ls")).allow).toBe(true);
    const allow = new AllowlistProvider({ allowedTools: ["ls"], deniedTools: ["ls"] });
    expect(allow.evaluate(at("grep"))).toMatchObject({
      allow: false,
      reasons: [{ message: "tool 'grep' not in allowlist" }],
    });
    expect(allow.evaluate(at("ls")).allow).toBe(false);
    expect(new AllowlistProvider({ allowedTools: [] }).evaluate(at("ls")).allow).toBe(false);
    expect(isGuardrailProvider(deny)).toBe(true);
    expect(isGuardrailProvider({ name: "x" })).toBe(false);
  });
});

describe("GuardrailMiddleware", () => {
  it("turns a denied call into DeerFlow's error result without running it; allowed calls run", async () => {
    const { results, ran } = await callTools({ provider: new AllowlistProvider({ deniedTools: ["bash"] }) }, [
      "bash",
      "ls",
    ]);
    expect(ran).toEqual(["ls"]);
    expect(results.map((r) => [r.content, r.status])).toEqual([
      [
        "Guardrail denied: tool 'bash' was blocked (oap.tool_not_allowed). Reason: tool 'bash' is denied. Choose an alternative approach.",
        "error",
      ],
      ["ls ran", "success"],
    ]);
  });

  it("passes the call, the run's ids and the passport to the provider", async () => {
    const seen: GuardrailRequest[] = [];
    await callTools(
      { provider: { name: "spy", evaluate: (r) => (seen.push(r), { allow: true }) }, passport: "agent-7" },
      ["ls"],
    );
    expect(seen[0]).toMatchObject({
      toolName: "ls",
      toolInput: { n: 0 },
      toolCallId: "c0",
      threadId: "t9",
      runId: "r9",
      agentId: "agent-7",
    });
  });

  it("denies when the provider fails (fail_closed), and lets the call run when fail_closed is false", async () => {
    const broken = {
      name: "broken",
      evaluate: (): never => {
        throw new Error("policy server down");
      },
    };
    const closed = await callTools({ provider: broken }, ["ls"]);
    expect(closed.ran).toEqual([]);
    expect(closed.results[0]?.content).toBe(
      guardrailDeniedText("ls", {
        allow: false,
        reasons: [{ code: "oap.evaluator_error", message: "guardrail provider error (fail-closed)" }],
      }),
    );
    const open = await callTools({ provider: broken, failClosed: false }, ["ls"]);
    expect(open.ran).toEqual(["ls"]);
  });
});
