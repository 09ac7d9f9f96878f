/**
 * The "Models" part of issue 14 through the real server, models on the scripted
 * OpenAI-compatible endpoint and the LangGraph SDK over a socket:
 *
 * 1. `GET /api/models` and `/api/models/:name` list the configured models in DeerFlow's
 *    shape, and a run's `context.model_name` picks one.
 */
import { startScriptedOpenAI, type RecordedRequest, type ScriptedOpenAI, type ScriptStep } from "@deerflow/agent/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEAD_AGENT_ASSISTANT_ID } from "../../src/server/create-server.js";
import { tempDirs } from "../support/temp-dir.js";
import { twoModelsYaml } from "../support/two-models.js";
import { startServer, type TestServer } from "../support/server-harness.js";

function script(request: RecordedRequest): ScriptStep {
  return { text: `answered by ${request.model ?? "?"}` };
}

describe("models through the server", () => {
  const temp = tempDirs();
  let openai: ScriptedOpenAI;
  let t: TestServer;

  beforeAll(async () => {
    openai = await startScriptedOpenAI({ script });
    const yaml = twoModelsYaml(openai.baseURL);
    t = await startServer(await temp.make(), yaml);
  }, 60_000);

  afterAll(async () => {
    await t?.server.close({ drain: false });
    await openai?.close();
    await temp.cleanup();
  });

  it("lists the models as DeerFlow does and answers one by name", async () => {
    const res = await fetch(`${t.url}/api/models`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      models: [
        { name: "main", model: "scripted-main", display_name: "Main model", description: null, supports_thinking: false, supports_reasoning_effort: false },
        { name: "thinker", model: "scripted-thinker", display_name: "Deep thinker", description: "Reasons before answering", supports_thinking: true, supports_reasoning_effort: true },
      ],
      token_usage: { enabled: true },
    });
    expect(await (await fetch(`${t.url}/api/models/thinker`)).json()).toMatchObject({ name: "thinker", supports_thinking: true });
    const missing = await fetch(`${t.url}/api/models/nope`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ detail: "Model 'nope' not found" });
  });

  it("a run's model_name picks the model the endpoint is asked for", async () => {
    const thread = await t.client.threads.create();
    const before = openai.requests.length;
    await t.client.runs.wait(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, { input: { messages: [{ type: "human", content: "hi" }] }, context: { model_name: "thinker" } });
    expect(openai.requests.slice(before).map((r) => r.model)).toEqual(["scripted-thinker"]);
    await t.client.runs.wait(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, { input: { messages: [{ type: "human", content: "again" }] } });
    expect(openai.requests.at(-1)?.model).toBe("scripted-main");
  });
});
