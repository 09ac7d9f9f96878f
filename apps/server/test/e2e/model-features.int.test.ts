/**
 * The "Models" part of issue 14 through the real server, models on the scripted
 * OpenAI-compatible endpoint and the LangGraph SDK over a socket:
 *
 * 1. `GET /api/models` and `/api/models/:name` list the configured models in DeerFlow's
 *    shape, and a run's `context.model_name` picks one.
 * 2. Thinking: `thinking_enabled` (default on) applies `when_thinking_enabled`, off derives
 *    DeerFlow's disable; `reasoning_effort` reaches the provider with `supports_reasoning_effort`.
 * 3. Reasoning: `reasoning_content` deltas of the endpoint reach the SDK's `messages` stream
 *    as `additional_kwargs.reasoning_content`.
 * 4. Vision: a `supports_vision` model gets `view_image`; after its call on an uploaded PNG,
 *    the next request carries the image as an `image_url` data URL; other models get no tool.
 */
import {
  startScriptedOpenAI,
  type RecordedRequest,
  type ScriptedOpenAI,
  type ScriptStep,
} from "@deerflow/agent/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEAD_AGENT_ASSISTANT_ID } from "../../src/server/create-server.js";
import { tempDirs } from "../support/temp-dir.js";
import { twoModelsYaml } from "../support/two-models.js";
import { startServer, type TestServer } from "../support/server-harness.js";

const lastUserText = (r: RecordedRequest): string => {
  const content = r.messages.filter((m) => m["role"] === "user").at(-1)?.["content"];
  return typeof content === "string" ? content : JSON.stringify(content ?? "");
};

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

function script(request: RecordedRequest): ScriptStep {
  if (JSON.stringify(request.messages).includes("look at dot.png")) {
    const answered = request.messages.some((m) => m["role"] === "tool");
    if (request.toolNames.includes("view_image") && !answered)
      return {
        toolCalls: [{ name: "view_image", args: { image_path: "/mnt/user-data/uploads/dot.png" }, id: "call_view" }],
      };
    return { text: "A single dot." };
  }
  if (lastUserText(request).includes("reason aloud"))
    return { reasoning: ["Rivers ", "flow ", "downhill."], text: "They flow to the sea." };
  return { text: `answered by ${request.model ?? "?"}` };
}

describe("models through the server", () => {
  const temp = tempDirs();
  let openai: ScriptedOpenAI;
  let t: TestServer;

  beforeAll(async () => {
    openai = await startScriptedOpenAI({ script });
    const yaml = twoModelsYaml(
      openai.baseURL,
      "    when_thinking_enabled: { extra_body: { thinking: { type: enabled } } }\n    context_window: 64000\n    supports_vision: true",
    );
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
        {
          name: "main",
          model: "scripted-main",
          display_name: "Main model",
          description: null,
          supports_thinking: false,
          supports_reasoning_effort: false,
        },
        {
          name: "thinker",
          model: "scripted-thinker",
          display_name: "Deep thinker",
          description: "Reasons before answering",
          supports_thinking: true,
          supports_reasoning_effort: true,
        },
      ],
      token_usage: { enabled: true },
    });
    expect(await (await fetch(`${t.url}/api/models/thinker`)).json()).toMatchObject({
      name: "thinker",
      supports_thinking: true,
    });
    const missing = await fetch(`${t.url}/api/models/nope`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ detail: "Model 'nope' not found" });
  });

  it("a run's model_name picks the model the endpoint is asked for", async () => {
    const thread = await t.client.threads.create();
    const before = openai.requests.length;
    await t.client.runs.wait(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
      input: { messages: [{ type: "human", content: "hi" }] },
      context: { model_name: "thinker" },
    });
    expect(openai.requests.slice(before).map((r) => r.model)).toEqual(["scripted-thinker"]);
    await t.client.runs.wait(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
      input: { messages: [{ type: "human", content: "again" }] },
    });
    expect(openai.requests.at(-1)?.model).toBe("scripted-main");
  });

  it("thinking_enabled and reasoning_effort shape the provider request, per run, without recompiling", async () => {
    const thread = await t.client.threads.create();
    const run = async (context: Record<string, unknown>) => {
      const before = openai.requests.length;
      await t.client.runs.wait(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
        input: { messages: [{ type: "human", content: "hi" }] },
        context: { model_name: "thinker", ...context },
      });
      return openai.requests
        .slice(before)
        .map((r) => ({ thinking: r.body["thinking"], effort: r.body["reasoning_effort"] }));
    };
    expect(await run({})).toEqual([{ thinking: { type: "enabled" }, effort: undefined }]);
    expect(await run({ thinking_enabled: false })).toEqual([{ thinking: { type: "disabled" }, effort: "minimal" }]);
    expect(await run({ reasoning_effort: "high" })).toEqual([{ thinking: { type: "enabled" }, effort: "high" }]);
    // A model without supports_thinking gets no thinking fields, even when asked.
    const before = openai.requests.length;
    await t.client.runs.wait(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
      input: { messages: [{ type: "human", content: "hi" }] },
      context: { model_name: "main", thinking_enabled: true, reasoning_effort: "high" },
    });
    const plain = openai.requests.slice(before)[0]?.body ?? {};
    expect([plain["thinking"], plain["reasoning_effort"]]).toEqual([undefined, undefined]);
  });

  it("streams the model's reasoning_content to the SDK in the messages stream", async () => {
    const thread = await t.client.threads.create();
    const reasoning: string[] = [];
    let answer = "";
    for await (const event of t.client.runs.stream(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
      input: { messages: [{ type: "human", content: "reason aloud about rivers" }] },
      context: { model_name: "thinker" },
      streamMode: ["messages-tuple"],
    })) {
      expect(event.event).not.toBe("error");
      if (event.event !== "messages") continue;
      const [chunk] = event.data as [
        { content?: unknown; additional_kwargs?: { reasoning_content?: string } },
        unknown,
      ];
      if (typeof chunk.additional_kwargs?.reasoning_content === "string")
        reasoning.push(chunk.additional_kwargs.reasoning_content);
      if (typeof chunk.content === "string") answer += chunk.content;
    }
    expect(reasoning.join("")).toBe("Rivers flow downhill.");
    expect(answer).toContain("They flow to the sea.");
    const state = await t.client.threads.getState<{
      messages: { type: string; additional_kwargs?: Record<string, unknown> }[];
    }>(thread.thread_id);
    expect(state.values.messages.at(-1)?.additional_kwargs?.["reasoning_content"]).toBe("Rivers flow downhill.");
  });

  it("a vision model views an uploaded image: the next request carries it as a data URL", async () => {
    const thread = await t.client.threads.create();
    const form = new FormData();
    form.append("files", new Blob([PNG], { type: "image/png" }), "dot.png");
    expect(
      (await fetch(`${t.url}/api/threads/${thread.thread_id}/uploads`, { method: "POST", body: form })).status,
    ).toBe(200);
    const before = openai.requests.length;
    await t.client.runs.wait(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
      input: { messages: [{ type: "human", content: "look at dot.png" }] },
      context: { model_name: "thinker" },
    });
    const sent = openai.requests.slice(before);
    expect(sent[0]?.toolNames).toContain("view_image");
    const last = sent.at(-1)?.messages.at(-1) as { role: string; content: unknown };
    expect(last.role).toBe("user");
    expect(last.content).toEqual([
      { type: "text", text: "Here are the images you've viewed:" },
      { type: "text", text: "- **/mnt/user-data/uploads/dot.png** (image/png)" },
      { type: "image_url", image_url: { url: `data:image/png;base64,${PNG.toString("base64")}` } },
    ]);
    const state = await t.client.threads.getState<{ messages: { content: unknown }[] }>(thread.thread_id);
    expect(state.values.messages.at(-1)?.content).toBe("A single dot.");
    // Not kept in the thread: the image goes to the model request only.
    expect(JSON.stringify(state.values.messages)).not.toContain("data:image/png");

    const plainBefore = openai.requests.length;
    await t.client.runs.wait(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
      input: { messages: [{ type: "human", content: "hello" }] },
      context: { model_name: "main" },
    });
    expect(openai.requests[plainBefore]?.toolNames).not.toContain("view_image");
  });
});
