import { afterEach, describe, expect, it, vi } from "vitest";
import type { SubagentResult } from "../types.js";
import { TaskStore } from "./task-store.js";

const done = (status: SubagentResult["status"]): SubagentResult => ({
  taskId: "t1",
  status,
  usage: null,
  modelName: null,
  messages: [],
});

describe("TaskStore", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("tracks pending, running and terminal statuses", () => {
    const store = new TaskStore();
    store.add("t1");
    expect(store.get("t1")?.status).toBe("pending");
    expect(store.markRunning("t1")).toBe(true);
    expect(store.isActive("t1")).toBe(true);
    store.finish("t1", done("completed"));
    expect(store.get("t1")?.status).toBe("completed");
    expect(store.markRunning("t1")).toBe(false);
  });

  it("sets the terminal result only once", () => {
    const store = new TaskStore();
    store.add("t1");
    store.finish("t1", done("timed_out"));
    expect(store.finish("t1", done("completed")).status).toBe("timed_out");
    expect(store.get("t1")?.status).toBe("timed_out");
  });

  it("drops a finished task as soon as it is delivered by default", () => {
    const store = new TaskStore();
    store.add("t1");
    store.finish("t1", done("completed"));
    store.delivered("t1");
    expect(store.get("t1")).toBeUndefined();
    expect(store.size).toBe(0);
  });

  it("keeps a delivered task for the retention period", () => {
    vi.useFakeTimers();
    const store = new TaskStore({ retentionMs: 5_000 });
    store.add("t1");
    store.finish("t1", done("completed"));
    store.delivered("t1");
    vi.advanceTimersByTime(4_999);
    expect(store.get("t1")?.status).toBe("completed");
    vi.advanceTimersByTime(1);
    expect(store.get("t1")).toBeUndefined();
  });

  it("does not drop a task that is still running", () => {
    const store = new TaskStore();
    store.add("t1");
    store.delivered("t1");
    expect(store.get("t1")?.status).toBe("pending");
  });

  it("rejects a negative retention", () => {
    expect(() => new TaskStore({ retentionMs: -1 })).toThrow(RangeError);
  });
});
