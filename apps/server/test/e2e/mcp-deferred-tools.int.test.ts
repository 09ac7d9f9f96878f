/**
 * Deferred MCP tools through the real server (`tool_search.enabled`, DeerFlow
 * §2.5): the model is offered `tool_search` and sees the MCP tool names in
 * `<available-deferred-tools>`, not their schemas; after it fetches one with
 * `select:`, the next request offers that tool, the model calls it, and the
 * result reaches the following request. A later run on the same thread still
 * has the promotion (read back from the checkpointed `tool_search` result).
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { RecordedRequest, ScriptStep } from "@deerflow/agent/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEAD_AGENT_ASSISTANT_ID } from "../../src/server/create-server.js";
import { everythingStdioEntry } from "../support/everything-mcp.js";
import { startScriptedServer, type ScriptedServer } from "../support/scripted-server.js";

const toolResults = (r: RecordedRequest) => r.messages.filter((m) => m["role"] === "tool");
const systemText = (r: RecordedRequest) =>
  r.messages
    .filter((m) => m["role"] === "system")
    .map((m) => JSON.stringify(m["content"]))
    .join("\n");

function script(request: RecordedRequest): ScriptStep {
  const last = JSON.stringify(request.messages.at(-1) ?? {});
  if (last.includes("second question")) return { text: "Still here." };
  if (!request.toolNames.includes("everything_echo"))
    return { toolCalls: [{ name: "tool_search", args: { query: "select:everything_echo" }, id: "call_search" }] };
  if (toolResults(request).length < 2)
    return { toolCalls: [{ name: "everything_echo", args: { message: "deferred" }, id: "call_echo" }] };
  return { text: "Done." };
}

describe("deferred MCP tools through the server", () => {
  let s: ScriptedServer;

  beforeAll(async () => {
    s = await startScriptedServer(
      script,
      "extensions_config: ./extensions_config.json\ntool_search:\n  enabled: true\n",
    );
    await writeFile(
      path.join(s.dir, "extensions_config.json"),
      JSON.stringify({
        mcpServers: { everything: everythingStdioEntry() },
      }),
    );
  }, 60_000);
  afterAll(() => s?.close());

  it("offers tool_search and the names, then the fetched tool, whose result reaches the model", async () => {
    const thread = await s.t.client.threads.create();
    await s.t.client.runs.wait(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
      input: { messages: [{ type: "human", content: "echo, via the deferred tools" }] },
    });
    const [first, second, third] = s.openai.requests.filter((r) => r.toolNames.includes("tool_search"));
    expect(first!.toolNames).not.toContain("everything_echo");
    expect(systemText(first!)).toMatch(
      /<available-deferred-tools>[\s\S]*everything_echo[\s\S]*<\/available-deferred-tools>/,
    );
    const searched = JSON.stringify(toolResults(second!)[0]?.["content"]);
    expect(searched).toContain('\\"name\\":\\"everything_echo\\"');
    expect(second!.toolNames).toContain("everything_echo");
    expect(JSON.stringify(toolResults(third!).at(-1)?.["content"])).toContain("Echo: deferred");

    const before = s.openai.requests.length;
    await s.t.client.runs.wait(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
      input: { messages: [{ type: "human", content: "second question" }] },
    });
    expect(s.openai.requests.slice(before)[0]!.toolNames).toContain("everything_echo");
  });
});
