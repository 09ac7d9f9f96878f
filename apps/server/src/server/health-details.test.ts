/**
 * `GET /health` reports the stream bridge's gap counters and the local runs: a
 * client resuming from an event the bridge no longer keeps gets a `gap` frame,
 * and the operator sees it counted.
 */
import { afterAll, describe, expect, it } from "vitest";
import { LEAD_AGENT_ASSISTANT_ID } from "./create-server.js";
import { openSse, sseEvents } from "../../test/support/sse-stream.js";
import { tempDirs } from "../../test/support/temp-dir.js";
import { HOST_BASH_CONFIG, startServer } from "../../test/support/server-harness.js";

const temp = tempDirs();
afterAll(() => temp.cleanup());

interface Health {
  status: string;
  details?: { local_runs: number; stream_bridge?: Record<string, number> };
}

describe("/health details", () => {
  it("counts the gaps the stream bridge ended subscriptions with", async () => {
    const dir = await temp.make();
    const config = `${HOST_BASH_CONFIG}runtime:\n  stream_bridge:\n    type: memory\n    max_events_per_run: 2\n`;
    const { server, url, client } = await startServer(dir, config);
    try {
      const before = (await (await fetch(`${url}/health`)).json()) as Health;
      expect(before.details).toEqual({
        local_runs: 0,
        stream_bridge: { slow_subscriber_gaps: 0, stale_cursor_gaps: 0, stream_deleted_gaps: 0 },
      });

      const thread = await client.threads.create();
      const run = await client.runs.create(thread.thread_id, LEAD_AGENT_ASSISTANT_ID, {
        input: { messages: [{ role: "user", content: "Hello" }] },
        streamMode: ["values"],
      });
      await client.runs.join(thread.thread_id, run.run_id);
      // Only the last two events are kept: resuming after the first one (metadata, id <ms>-0) is a gap.
      const first = `${Date.now() - 60_000}-0`;
      const resumed = await openSse(`${url}/api/threads/${thread.thread_id}/runs/${run.run_id}/stream`, {
        headers: { "last-event-id": first },
      });
      const events = sseEvents(await resumed.done());
      expect(events.map((e) => e.event)).toEqual(["gap"]);

      const after = (await (await fetch(`${url}/health`)).json()) as Health;
      expect(after.status).toBe("ok");
      expect(after.details?.stream_bridge).toEqual({
        slow_subscriber_gaps: 0,
        stale_cursor_gaps: 1,
        stream_deleted_gaps: 0,
      });
    } finally {
      await server.close();
    }
  });
});
