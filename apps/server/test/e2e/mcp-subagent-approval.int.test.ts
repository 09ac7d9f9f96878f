/**
 * An approval-gated MCP tool through the real server: with `guardrails.require_approval:
 * [everything_echo]`, the lead is still offered `everything_echo` (it can pause for a human), but a
 * subagent it delegates to is never offered it, and a subagent that names it anyway gets an error
 * result instead of a call to the real `@modelcontextprotocol/server-everything` (delegating must not
 * bypass the approval). The subagent keeps the server's other tools.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { RecordedRequest, ScriptStep } from "@deerflow/agent/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEAD_AGENT_ASSISTANT_ID } from "../../src/server/create-server.js";
import { everythingStdioEntry } from "../support/everything-mcp.js";
import { startScriptedServer, type ScriptedServer } from "../support/scripted-server.js";

const hasToolResult = (r: RecordedRequest): boolean => r.messages.some((m) => m["role"] === "tool");

/** The lead delegates; the subagent names the gated tool whether offered or not. */
function script(request: RecordedRequest): ScriptStep {
  const answered = hasToolResult(request);
  if (!request.toolNames.includes("task"))
    return answered
      ? { text: "The subagent could not echo." }
      : { toolCalls: [{ name: "everything_echo", args: { message: "bypass" }, id: "call_sub_echo" }] };
  return answered
    ? { text: "Delegated." }
    : {
        toolCalls: [
          {
            name: "task",
            id: "call_task",
            args: { description: "Echo", prompt: "Echo something.", subagent_type: "general-purpose" },
          },
        ],
      };
}

describe("an approval-gated MCP tool and subagents", () => {
  let s: ScriptedServer;

  beforeAll(async () => {
    s = await startScriptedServer(
      script,
      "extensions_config: ./extensions_config.json\nguardrails:\n  require_approval: [everything_echo]\n",
    );
    await writeFile(
      path.join(s.dir, "extensions_config.json"),
      JSON.stringify({
        mcpServers: { everything: everythingStdioEntry() },
      }),
    );
  }, 60_000);
  afterAll(() => s?.close());

  it("is offered to the lead but never offered to nor run by a subagent", async () => {
    const thread = await s.t.client.threads.create();
    const before = s.openai.requests.length;
    await s.t.client.runs.wait(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
      input: { messages: [{ type: "human", content: "delegate an echo" }] },
    });
    const requests = s.openai.requests.slice(before);
    const lead = requests.filter((r) => r.toolNames.includes("task"));
    const sub = requests.filter((r) => !r.toolNames.includes("task"));
    expect(lead[0]?.toolNames).toContain("everything_echo");
    expect(sub.length).toBeGreaterThanOrEqual(2);
    for (const r of sub) {
      expect(r.toolNames).not.toContain("everything_echo");
      expect(r.toolNames.some((n) => n.startsWith("everything_"))).toBe(true);
    }
    const refused = sub.find(hasToolResult)?.messages.find((m) => m["role"] === "tool");
    const text = JSON.stringify(refused?.["content"]);
    expect(text).toContain("Tool 'everything_echo' is not available to this agent.");
    expect(text).not.toContain("Echo: bypass");
  });
});
