/**
 * Graceful shutdown: a run that finishes within the drain timeout ends normally, a
 * run still going when it expires is interrupted ("Server shutting down"), new
 * requests are refused, and close() is idempotent.
 */
import { afterAll, describe, expect, it } from "vitest";
import { LEAD_AGENT_ASSISTANT_ID } from "../../src/server/create-server.js";
import { tempDirs } from "../helpers/temp-dir.js";
import { eventually, HOST_BASH_CONFIG, startServer } from "./helpers.js";

const temp = tempDirs();
afterAll(() => temp.cleanup());

describe("graceful shutdown", () => {
  it("drains a short run and interrupts a long one", async () => {
    const dir = await temp.make();
    // The drain budget only has to outlast the short demo turn; the long run sleeps far beyond it.
    const { server, client, url, logs } = await startServer(dir, HOST_BASH_CONFIG, { deployment: { shutdownTimeoutMs: 5_000 } });

    const longThread = await client.threads.create();
    const long = await client.runs.create(longThread.thread_id, LEAD_AGENT_ASSISTANT_ID, { input: { messages: [{ role: "user", content: "run `sleep 600`" }] } });
    // Wait until the long run is inside its bash call (the model's tool call is checkpointed).
    await eventually(async () => {
      const state = await client.threads.getState<{ messages?: { tool_calls?: { args?: { command?: string } }[] }[] }>(longThread.thread_id);
      return state.values.messages?.some((m) => m.tool_calls?.some((c) => c.args?.command === "sleep 600")) === true ? true : undefined;
    });

    const shortThread = await client.threads.create();
    const short = await client.runs.create(shortThread.thread_id, LEAD_AGENT_ASSISTANT_ID, { input: { messages: [{ role: "user", content: "Hello" }] } });

    const joined = Promise.all([server.manager.join(short.run_id), server.manager.join(long.run_id)]);
    const closing = server.close();
    expect(server.close()).toBe(closing);
    const [shortRun, longRun] = await joined;
    await closing;

    expect(shortRun.status).toBe("success");
    expect(longRun.status).toBe("interrupted");
    expect(longRun.error).toBe("Server shutting down");
    await expect(fetch(`${url}/ok`)).rejects.toThrow();
    const messages = logs.messages();
    expect(messages).toContain("shutting down: no new requests; draining local runs");
    expect(messages).toContain("shutdown complete");
  });

  it("interrupts at once without drain", async () => {
    const dir = await temp.make();
    const { server, client } = await startServer(dir, HOST_BASH_CONFIG);
    const thread = await client.threads.create();
    const run = await client.runs.create(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, { input: { messages: [{ role: "user", content: "run `sleep 600`" }] } });
    await eventually(async () => ((await client.runs.get(thread.thread_id, run.run_id)).status === "running" ? true : undefined));
    const joined = server.manager.join(run.run_id);
    await server.close({ drain: false });
    expect((await joined).status).toBe("interrupted");
  });
});
