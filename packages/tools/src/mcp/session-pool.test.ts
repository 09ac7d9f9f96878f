import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { silentLogger } from "@deerflow/kernel";
import { describe, expect, it } from "vitest";
import { McpSessionPool } from "./session-pool.js";

function fakeOpener() {
  const opened: { id: number; closed: boolean }[] = [];
  const open = async (): Promise<Client> => {
    const record = { id: opened.length, closed: false };
    opened.push(record);
    return { close: async () => void (record.closed = true), onclose: undefined } as unknown as Client;
  };
  return { opened, open };
}

const settle = () => new Promise((r) => setTimeout(r, 10));

describe("McpSessionPool", () => {
  it("reuses a session per (server, scope), opens one per new scope, and evicts the least recently used", async () => {
    const { opened, open } = fakeOpener();
    const pool = new McpSessionPool({ open, maxSessions: 2, logger: silentLogger });
    (await pool.acquire("s", "t1")).release();
    (await pool.acquire("s", "t1")).release();
    expect(opened).toHaveLength(1);
    (await pool.acquire("s", "t2")).release();
    (await pool.acquire("s", "t1")).release(); // t1 is now the most recent
    (await pool.acquire("s", "t3")).release(); // evicts t2
    await settle();
    expect(opened.map((o) => o.closed)).toEqual([false, true, false]);
    expect(pool.size).toBe(2);
    await pool.close();
    expect(opened.every((o) => o.closed)).toBe(true);
  });

  it("never closes a session under a call: an evicted one closes when its call ends", async () => {
    const { opened, open } = fakeOpener();
    const pool = new McpSessionPool({ open, maxSessions: 1, logger: silentLogger });
    const busy = await pool.acquire("s", "t1");
    (await pool.acquire("s", "t2")).release();
    await settle();
    expect(opened[0]!.closed).toBe(false);
    busy.release();
    await settle();
    expect(opened[0]!.closed).toBe(true);
    await pool.close();
  });

  it("closes idle sessions, and a failed open is not kept", async () => {
    const { opened, open } = fakeOpener();
    const pool = new McpSessionPool({ open, idleMs: 20, logger: silentLogger });
    (await pool.acquire("s", "t1")).release();
    await new Promise((r) => setTimeout(r, 80));
    expect(opened[0]!.closed).toBe(true);
    expect(pool.size).toBe(0);

    let fail = true;
    const flaky = new McpSessionPool({
      open: async () => {
        if (fail) throw new Error("no start");
        return open();
      },
      logger: silentLogger,
    });
    await expect(flaky.acquire("s", "t")).rejects.toThrow("no start");
    await settle();
    fail = false;
    (await flaky.acquire("s", "t")).release();
    expect(flaky.size).toBe(1);
    await Promise.all([pool.close(), flaky.close()]);
  });
});
