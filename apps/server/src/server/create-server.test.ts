/**
 * createServer on embedded defaults (no config.yaml: demo model, SQLite run store and
 * bridge, SQLite checkpointer and sandbox folders under ./.deerflow-data, ./skills),
 * driven through a real socket with the LangGraph SDK client.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config/load-config.js";
import { createServer, LEAD_AGENT_ASSISTANT_ID, type DeerFlowServer } from "./create-server.js";
import { makeSkillsRoot } from "../../test/support/lead-agent-env.js";
import { tempDirs } from "../../test/support/temp-dir.js";
import { captureLogger, embeddedEnv, type CapturedLogs } from "../../test/support/server-harness.js";

const temp = tempDirs();
let dir: string;
let server: DeerFlowServer;
let url: string;
let client: Client;
let logs: CapturedLogs;

beforeAll(async () => {
  dir = await temp.make();
  await makeSkillsRoot(dir);
  const env = embeddedEnv();
  const loaded = await loadConfig({ cwd: dir, env });
  const captured = captureLogger();
  logs = captured.logs;
  server = await createServer(loaded, { logger: captured.logger, env, cwd: dir });
  url = await server.listen({ port: 0, host: "127.0.0.1" });
  client = new Client({ apiUrl: `${url}/api` });
});

afterAll(async () => {
  await server?.close();
  await temp.cleanup();
});

type Message = { type?: string; content?: unknown };

function lastAiText(values: unknown): string {
  const messages = ((values as { messages?: Message[] }).messages ?? []).filter((m) => m.type === "ai");
  const content = messages.at(-1)?.content;
  return typeof content === "string" ? content : JSON.stringify(content);
}

describe("createServer on embedded defaults", () => {
  it("uses the embedded components and logs describeConfig lines and the URL", () => {
    expect(server.manager.store.constructor.name).toBe("WorkerSqliteRunStore");
    expect(server.manager.bridge.constructor.name).toBe("MemoryStreamBridge");
    expect(server.manager.coordinator.constructor.name).toBe("LocalRunCoordinator");
    expect(server.components.checkpointer).toBeDefined();
    const messages = logs.messages();
    expect(messages).toContain("config: no config.yaml found; using embedded defaults");
    expect(messages.some((m) => m.startsWith("stream bridge: memory"))).toBe(true);
    expect(
      messages.some(
        (m) =>
          m.startsWith("checkpointer: file ") && m.includes(path.join(dir, ".deerflow-data", "checkpoints.sqlite")),
      ),
    ).toBe(true);
    const listening = logs.records.find((r) => r["event"] === "listening");
    expect(listening?.["url"]).toBe(url);
    // Structured: every record is a JSON object with a level and a name.
    expect(logs.records.every((r) => typeof r["level"] === "number" && r["name"] === "deerflow-server")).toBe(true);
  });

  it("answers /ok, /health (run store and stream bridge checks) and /openapi.json", async () => {
    expect(await (await fetch(`${url}/ok`)).json()).toEqual({ ok: true });
    const health = await fetch(`${url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({
      status: "ok",
      checks: { run_store: "ok", stream_bridge: "ok" },
      details: {
        local_runs: 0,
        stream_bridge: { slow_subscriber_gaps: 0, stale_cursor_gaps: 0, stream_deleted_gaps: 0 },
      },
    });
    const doc = (await (await fetch(`${url}/openapi.json`)).json()) as {
      info: { title: string };
      paths: Record<string, unknown>;
    };
    expect(doc.info.title).toBe("DeerFlow Server");
    for (const p of [
      "/api/threads/{thread_id}/runs/stream",
      "/api/assistants/search",
      "/api/skills",
      "/api/threads/{thread_id}/uploads",
    ]) {
      expect(Object.keys(doc.paths)).toContain(p);
    }
  });

  it("serves the lead agent as the one assistant", async () => {
    const found = await client.assistants.search({});
    expect(found.map((a) => [a.assistant_id, a.graph_id])).toEqual([
      [LEAD_AGENT_ASSISTANT_ID, LEAD_AGENT_ASSISTANT_ID],
    ]);
    const one = await client.assistants.get(LEAD_AGENT_ASSISTANT_ID);
    expect(one.name).toBe("DeerFlow");
  });

  it("serves the skills of ./skills", async () => {
    const res = await fetch(`${url}/api/skills`);
    const body = (await res.json()) as { skills: { name: string }[] };
    expect(body.skills.map((s) => s.name)).toEqual(["deep-research"]);
  });

  it("runs the demo model end to end: streams values and messages, ends with success, keeps the state", async () => {
    const thread = await client.threads.create();
    const events: string[] = [];
    let lastValues: unknown;
    for await (const chunk of client.runs.stream(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
      input: { messages: [{ role: "user", content: "Hello there" }] },
      streamMode: ["values", "messages-tuple"],
    })) {
      events.push(chunk.event);
      if (chunk.event === "values") lastValues = chunk.data;
    }
    expect(events[0]).toBe("metadata");
    expect(events).toContain("values");
    expect(events).toContain("messages");
    expect(events).not.toContain("error");
    expect(lastAiText(lastValues)).toContain("[DeerFlow demo model");

    const runs = await client.runs.list(thread.thread_id);
    expect(runs.map((r) => r.status)).toEqual(["success"]);
    const state = await client.threads.getState(thread.thread_id);
    expect(lastAiText(state.values)).toContain("[DeerFlow demo model");
    expect((await client.threads.get(thread.thread_id)).status).toBe("idle");
  });

  it("serves what the agent wrote in its sandbox as thread files (one data dir)", async () => {
    const thread = await client.threads.create();
    const run = await client.runs.create(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
      input: { messages: [{ role: "user", content: "Write a short report about otters" }] },
    });
    await client.runs.join(thread.thread_id, run.run_id);
    expect((await client.runs.get(thread.thread_id, run.run_id)).status).toBe("success");

    const files = (await (await fetch(`${url}/api/threads/${thread.thread_id}/files`)).json()) as {
      outputs: { filename: string; artifact_url: string; path: string }[];
    };
    expect(files.outputs.length).toBe(1);
    const output = files.outputs[0]!;
    const onDisk = path.join(
      dir,
      ".deerflow-data",
      "users",
      "default",
      "threads",
      thread.thread_id,
      "user-data",
      "outputs",
      output.filename,
    );
    const artifact = await fetch(`${url}${output.artifact_url}`);
    expect(artifact.status).toBe(200);
    expect(await artifact.text()).toBe(await fs.readFile(onDisk, "utf8"));
    const state = await client.threads.getState<{ artifacts?: string[] }>(thread.thread_id);
    expect(state.values.artifacts).toEqual([output.path]);
  });

  it("answers unknown assistants with 404 and the gateway's error format", async () => {
    const thread = await client.threads.create();
    const res = await fetch(`${url}/api/threads/${thread.thread_id}/runs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ assistant_id: "nope", input: {} }),
    });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { detail: string }).detail).toContain("nope");
  });
});
