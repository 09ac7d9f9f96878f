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

  it("leases an open session without an await, keeps the LRU order, and never hands out a closed or retired one", async () => {
    const { opened, open } = fakeOpener();
    const pool = new McpSessionPool({ open, maxSessions: 2, logger: silentLogger });
    expect(pool.leaseOpen("s", "t1")).toBeUndefined(); // not opened yet: acquire opens it
    const first = await pool.acquire("s", "t1");
    const leased = pool.leaseOpen("s", "t1");
    expect(leased?.client).toBe(first.client);
    first.release();
    pool.release(leased!);
    (await pool.acquire("s", "t2")).release();
    const again = pool.leaseOpen("s", "t1"); // t1 is now the most recent again
    expect(again?.client).toBe(first.client);
    expect(pool.leaseOpen("other", "t1")).toBeUndefined();
    (await pool.acquire("s", "t3")).release(); // evicts t2, not t1 (t1 is also still in use)
    await settle();
    expect(opened.map((o) => o.closed)).toEqual([false, true, false]);
    expect(pool.leaseOpen("s", "t2")).toBeUndefined();
    pool.release(again!);

    // A session whose server went away is not leased again; the next acquire opens a new one.
    const t3 = pool.leaseOpen("s", "t3")!;
    pool.release(t3);
    (t3.client as unknown as { onclose: () => void }).onclose();
    expect(pool.leaseOpen("s", "t3")).toBeUndefined();
    (await pool.acquire("s", "t3")).release();
    expect(opened).toHaveLength(4);

    // An evicted session leased by leaseOpen closes when it is released, not before.
    const busy = pool.leaseOpen("s", "t1")!;
    (await pool.acquire("s", "t3")).release(); // t1 is the least recent now
    (await pool.acquire("s", "t4")).release(); // evicts t1 while busy
    await settle();
    expect(opened[0]!.closed).toBe(false);
    expect(pool.leaseOpen("s", "t1")).toBeUndefined();
    pool.release(busy);
    await settle();
    expect(opened[0]!.closed).toBe(true);

    await pool.close();
    expect(pool.leaseOpen("s", "t4")).toBeUndefined();
  });
});
