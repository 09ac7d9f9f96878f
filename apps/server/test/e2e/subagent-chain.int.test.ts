/**
 * Subagents run the runtime part of the lead's chain (issue 14 §2, DeerFlow
 * rows 1–4 and 6–13), through the real server, the LangGraph SDK over a socket
 * and a model on the scripted OpenAI-compatible endpoint: the lead delegates
 * with `task`, the subagent's first model call gets a 500, the subagent's LLM
 * error handling retries it, and the run completes with the subagent's answer.
 */
import type { RecordedRequest, ScriptStep } from "@deerflow/agent/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEAD_AGENT_ASSISTANT_ID } from "../../src/server/create-server.js";
import { startScriptedServer, type ScriptedServer } from "../support/scripted-server.js";

/** The lead is offered `task`; a subagent never is (the recursion guard). */
const isLead = (r: RecordedRequest): boolean => r.toolNames.includes("task");
const hasToolResult = (r: RecordedRequest): boolean => r.messages.some((m) => m["role"] === "tool");

describe("subagents through the server", () => {
  let server: ScriptedServer;
  const lead: RecordedRequest[] = [];
  const sub: RecordedRequest[] = [];

  beforeAll(async () => {
    const script = (request: RecordedRequest): ScriptStep => {
      if (isLead(request)) {
        lead.push(request);
        return hasToolResult(request)
          ? { text: "The subagent finished." }
          : {
              toolCalls: [
                {
                  name: "task",
                  id: "call_task_1",
                  args: {
                    description: "Count files",
                    prompt: "Say how many files there are.",
                    subagent_type: "general-purpose",
                  },
                },
              ],
            };
      }
      sub.push(request);
      return sub.length === 1 ? { status: 500, message: "upstream exploded" } : { text: "There are 3 files." };
    };
    server = await startScriptedServer(
      script,
      `
llm_call:
  retry_max_attempts: 3
  retry_base_delay_ms: 20
  retry_cap_delay_ms: 50
`,
    );
  });

  afterAll(async () => {
    await server?.close();
  });

  it("a subagent's model call that fails once with 500 is retried by the subagent's chain; the run completes", async () => {
    const thread = await server.t.client.threads.create();
    const run = await server.t.client.runs.create(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
      input: { messages: [{ type: "human", content: "How many files?" }] },
      context: { subagent_enabled: true },
    });
    await server.t.client.runs.join(thread.thread_id, run.run_id);
    const record = (await server.t.client.runs.get(thread.thread_id, run.run_id)) as { status: string };
    expect(record.status).toBe("success");

    // One failed and one retried subagent call: the model's own max_retries is 0, so the retry
    // is the subagent chain's LlmErrorHandling (without it the 500 fails the task).
    expect(sub).toHaveLength(2);
    expect(sub[1]!.messages.find((m) => m["role"] === "user")?.["content"]).toBe("Say how many files there are.");
    expect(lead).toHaveLength(2);

    const state = await server.t.client.threads.getState<{
      messages: { type: string; name?: string; content: unknown; additional_kwargs?: Record<string, unknown> }[];
    }>(thread.thread_id);
    const taskResult = state.values.messages.find((m) => m.type === "tool" && m.name === "task");
    expect(taskResult?.content).toBe("Task Succeeded. Result: There are 3 files.");
    expect(taskResult?.additional_kwargs?.["subagent_status"]).toBe("completed");
    expect(state.values.messages.at(-1)?.content).toBe("The subagent finished.");
  });
});
