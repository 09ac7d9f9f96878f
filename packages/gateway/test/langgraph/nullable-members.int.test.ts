/**
 * Object members of request bodies that also take null (`metadata`,
 * `context`, `config` and its `configurable`, `command`, `checkpoint`): a
 * wrong scalar is a 422 naming the member. The gateway coerces types as
 * FastAPI's lax mode does ("true" → true), and ajv's coercion would also turn
 * "", 0 and false into null — silently "absent" instead of an error.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../support/langgraph/server.js";

type Detail = Array<{ loc: Array<string | number> }>;

const WRONG: ReadonlyArray<unknown> = ["", 0, false, "x", 7, true];

describe("nullable object members over HTTP", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer({ heartbeatMs: 50 });
  });
  afterAll(async () => {
    await server.close();
  });

  async function post(path: string, body: unknown): Promise<{ status: number; loc: unknown }> {
    const res = await fetch(`${server.apiUrl}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return {
      status: res.status,
      loc: res.status === 422 ? (JSON.parse(text) as { detail: Detail }).detail[0]?.loc : undefined,
    };
  }

  const runMembers: ReadonlyArray<readonly [string, (v: unknown) => Record<string, unknown>, Array<string>]> = [
    ["metadata", (v) => ({ metadata: v }), ["body", "metadata"]],
    ["context", (v) => ({ context: v }), ["body", "context"]],
    ["config", (v) => ({ config: v }), ["body", "config"]],
    ["config.configurable", (v) => ({ config: { configurable: v } }), ["body", "config", "configurable"]],
    ["command", (v) => ({ command: v, input: null }), ["body", "command"]],
    ["checkpoint", (v) => ({ checkpoint: v }), ["body", "checkpoint"]],
  ];

  describe.each(runMembers)("a run's %s", (_name, member, loc) => {
    it.each(WRONG)("given %j is a 422 naming it, and no run is created", async (value) => {
      const threads = await server.manager.store.countThreads({});
      const res = await post("/runs/wait", { assistant_id: "agent", input: { messages: [] }, ...member(value) });
      expect(res).toEqual({ status: 422, loc });
      expect(await server.manager.store.countThreads({})).toBe(threads);
    });

    it("accepts null as absent", async () => {
      const res = await post("/runs/wait", {
        assistant_id: "agent",
        input: { messages: [{ role: "user", content: "hi" }] },
        ...member(null),
      });
      expect(res.status).toBe(200);
    });
  });

  it.each(WRONG)("a thread's metadata given %j is a 422 naming it", async (value) => {
    expect(await post("/threads", { metadata: value })).toEqual({ status: 422, loc: ["body", "metadata"] });
  });
});
