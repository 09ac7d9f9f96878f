import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { MemorySaver, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { afterAll, describe, expect, it } from "vitest";
import { RuntimeError } from "../errors.js";
import { createCheckpointer, validateCheckpointerConfig, type CheckpointerConfig } from "./create-checkpointer.js";
import { expectUsableBeforeFirstCheckpoint } from "../../test/support/fresh-checkpointer.js";

function echoGraph(checkpointer: BaseCheckpointSaver) {
  return new StateGraph(MessagesAnnotation)
    .addNode("echo", async (state) => ({ messages: [new AIMessage(`echo ${state.messages.length}`)] }))
    .addEdge(START, "echo")
    .compile({ checkpointer });
}

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (err) {
    return RuntimeError.isInstance(err) ? err.code : `other: ${(err as Error).message}`;
  }
  return undefined;
}

const dir = mkdtempSync(path.join(os.tmpdir(), "create-checkpointer-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("createCheckpointer", () => {
  it("creates an in-memory saver that records run metadata", async () => {
    const { checkpointer, close } = await createCheckpointer({ type: "memory" });
    expect(checkpointer).toBeInstanceOf(MemorySaver);
    const config = { configurable: { thread_id: "t" }, metadata: { run_id: "r1" } };
    await echoGraph(checkpointer).invoke({ messages: [new HumanMessage("hi")] }, config);
    const tuple = await checkpointer.getTuple({ configurable: { thread_id: "t" } });
    expect(tuple?.metadata).toMatchObject({ run_id: "r1", source: "loop" });
    await close();
    await close();
  });

  it("keeps file-backed state across closing and reopening the same path, creating its directory", async () => {
    const file = path.join(dir, "nested", "deeper", "checkpoints.db");
    const first = await createCheckpointer({ type: "file", path: file });
    await echoGraph(first.checkpointer).invoke(
      { messages: [new HumanMessage("hi")] },
      { configurable: { thread_id: "t1" } },
    );
    await first.close();
    await first.close(); // idempotent
    expect(existsSync(file)).toBe(true);

    const second = await createCheckpointer({ type: "file", path: file });
    const graph = echoGraph(second.checkpointer);
    const state = await graph.getState({ configurable: { thread_id: "t1" } });
    expect(state.values.messages.map((m: { content: unknown }) => m.content)).toEqual(["hi", "echo 1"]);
    await graph.invoke({ messages: [new HumanMessage("again")] }, { configurable: { thread_id: "t1" } });
    const after = await graph.getState({ configurable: { thread_id: "t1" } });
    expect(after.values.messages.map((m: { content: unknown }) => m.content)).toEqual([
      "hi",
      "echo 1",
      "again",
      "echo 3",
    ]);
    await second.close();
  });

  it("opens the file with synchronous NORMAL and compiles each statement once, with every write and filtered list still right", async () => {
    const file = path.join(dir, "statements.db");
    const handle = await createCheckpointer({ type: "file", path: file });
    const saver = handle.checkpointer as BaseCheckpointSaver & {
      db: { pragma(s: string, o: { simple: true }): unknown; prepare(sql: string): unknown };
    };
    expect(saver.db.pragma("synchronous", { simple: true })).toBe(1);
    const graph = echoGraph(saver);
    for (const [thread, runId] of [
      ["a", "r1"],
      ["a", "r2"],
      ["b", "r3"],
    ] as const)
      await graph.invoke(
        { messages: [new HumanMessage(runId)] },
        { configurable: { thread_id: thread }, metadata: { run_id: runId } },
      );
    const put = `INSERT OR REPLACE INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata) VALUES (?, ?, ?, ?, ?, ?, ?)`;
    expect(saver.db.prepare(put)).toBe(saver.db.prepare(put));
    const state = await graph.getState({ configurable: { thread_id: "a" } });
    expect(state.values.messages.map((m: { content: unknown }) => m.content)).toEqual(["r1", "echo 1", "r2", "echo 3"]);
    const runsOf = async (filter: Record<string, unknown>, thread = "a"): Promise<unknown[]> => {
      const out: unknown[] = [];
      for await (const t of saver.list({ configurable: { thread_id: thread } }, { filter }))
        out.push((t.metadata as Record<string, unknown> | undefined)?.["run_id"]);
      return out;
    };
    // Same SQL text, different bound values: each list sees its own parameters.
    expect(new Set(await runsOf({ run_id: "r1" }))).toEqual(new Set(["r1"]));
    expect(new Set(await runsOf({ run_id: "r2" }))).toEqual(new Set(["r2"]));
    expect(new Set(await runsOf({ run_id: "r3" }, "b"))).toEqual(new Set(["r3"]));
    expect(await runsOf({ run_id: "r3" })).toEqual([]);
    await handle.close();
  });

  it("sets up a new file at creation: deleteThread, getTuple and list work before the first checkpoint", async () => {
    const { checkpointer, close } = await createCheckpointer({
      type: "file",
      path: path.join(dir, "fresh", "checkpoints.db"),
    });
    try {
      // SqliteSaver creates its tables lazily on reads and writes, but not on deleteThread.
      await expectUsableBeforeFirstCheckpoint(checkpointer);
    } finally {
      await close();
    }
  });

  it("reports a file that is not an SQLite database as CONFIG_INVALID at creation", async () => {
    const file = path.join(dir, "not-a-database.db");
    writeFileSync(file, "this is not an SQLite database, just text long enough to hold a header and more");
    const err = await createCheckpointer({ type: "file", path: file }).catch((e: unknown) => e);
    expect(RuntimeError.isInstance(err) && err.code).toBe("CONFIG_INVALID");
    expect((err as Error).message).toContain(`Cannot set up checkpoint file ${file}`);
  });

  it("rejects a file path it cannot create", async () => {
    const blocker = path.join(dir, "a-file");
    const first = await createCheckpointer({ type: "file", path: blocker });
    await first.close();
    // a directory cannot be created below a regular file
    expect(await codeOf(createCheckpointer({ type: "file", path: path.join(blocker, "sub", "x.db") }))).toBe(
      "CONFIG_INVALID",
    );
  });

  it("names the package to install when an optional module is missing", async () => {
    const missing = async (specifier: string) => {
      const err = new Error(`Cannot find package '${specifier}' imported from here`) as Error & { code: string };
      err.code = "ERR_MODULE_NOT_FOUND";
      throw err;
    };
    const fileErr = await createCheckpointer(
      { type: "file", path: path.join(dir, "x.db") },
      { importModule: missing },
    ).catch((e: unknown) => e);
    expect(RuntimeError.isInstance(fileErr) && fileErr.code).toBe("CONFIG_INVALID");
    expect((fileErr as Error).message).toContain("pnpm add @langchain/langgraph-checkpoint-sqlite");
    const pgErr = await createCheckpointer(
      { type: "postgres", connectionString: "postgres://x@127.0.0.1:1/db" },
      { importModule: missing },
    ).catch((e: unknown) => e);
    expect((pgErr as Error).message).toContain("@langchain/langgraph-checkpoint-postgres");
  });

  it("reports a PostgreSQL server it cannot reach as STORE_UNAVAILABLE", async () => {
    expect(
      await codeOf(createCheckpointer({ type: "postgres", connectionString: "postgres://nobody@127.0.0.1:1/none" })),
    ).toBe("STORE_UNAVAILABLE");
  });
});

describe("validateCheckpointerConfig", () => {
  it.each([
    [null, /must be an object/],
    [[], /must be an object/],
    [{}, /Unknown checkpointer type undefined/],
    [{ type: "redis" }, /Unknown checkpointer type "redis"; expected one of memory, file, postgres/],
    [{ type: "file" }, /needs a non-empty "path"/],
    [{ type: "file", path: "  " }, /needs a non-empty "path"/],
    [{ type: "postgres" }, /needs a non-empty "connectionString"/],
    [
      { type: "postgres", connectionString: "postgres://x", schema: 'public"; DROP TABLE x; --' },
      /plain SQL identifier/,
    ],
    [{ type: "postgres", connectionString: "postgres://x", schema: 5 }, /plain SQL identifier/],
  ])("rejects %j", (config, message) => {
    let caught: unknown;
    try {
      validateCheckpointerConfig(config);
    } catch (err) {
      caught = err;
    }
    expect(RuntimeError.isInstance(caught) && caught.code).toBe("CONFIG_INVALID");
    expect((caught as Error).message).toMatch(message);
  });

  it("returns the valid config without extra keys", () => {
    const config = {
      type: "postgres",
      connectionString: "postgres://x",
      schema: "deerflow_1",
      extra: true,
    } as unknown as CheckpointerConfig;
    expect(validateCheckpointerConfig(config)).toEqual({
      type: "postgres",
      connectionString: "postgres://x",
      schema: "deerflow_1",
    });
  });

  it("rejects an unknown type passed to createCheckpointer", async () => {
    expect(await codeOf(createCheckpointer({ type: "mongo" } as unknown as CheckpointerConfig))).toBe("CONFIG_INVALID");
  });
});
