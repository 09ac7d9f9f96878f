import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createCheckpointer } from "../../src/checkpointers/create-checkpointer.js";
import { expectUsableBeforeFirstCheckpoint } from "../support/fresh-checkpointer.js";
import { requirePostgres, uniqueName } from "../support/services.js";

const url = await requirePostgres();
const schema = uniqueName("rt_ckpt");
const raceSchema = uniqueName("rt_ckpt_race");
const schemasToDrop = [schema, raceSchema];

function echoGraph(checkpointer: BaseCheckpointSaver) {
  return new StateGraph(MessagesAnnotation)
    .addNode("echo", async (state) => ({ messages: [new AIMessage(`echo ${state.messages.length}`)] }))
    .addEdge(START, "echo")
    .compile({ checkpointer });
}

describe.skipIf(!url)("createCheckpointer postgres", () => {
  afterAll(async () => {
    const client = new pg.Client({ connectionString: url! });
    await client.connect();
    try {
      for (const name of schemasToDrop) await client.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
    } finally {
      await client.end();
    }
  });

  it("creates its tables in the schema, records run metadata, and keeps state across instances", async () => {
    const first = await createCheckpointer({ type: "postgres", connectionString: url!, schema });
    await echoGraph(first.checkpointer).invoke(
      { messages: [new HumanMessage("hi")] },
      { configurable: { thread_id: "t1" }, metadata: { run_id: "r1" } },
    );
    await first.close();
    await first.close();

    const client = new pg.Client({ connectionString: url! });
    await client.connect();
    try {
      const tables = await client.query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name",
        [schema],
      );
      expect(tables.rows.map((r) => r.table_name)).toEqual(
        expect.arrayContaining(["checkpoint_blobs", "checkpoint_writes", "checkpoints"]),
      );
      const runIds = await client.query(
        `SELECT metadata->>'run_id' AS run_id FROM "${schema}".checkpoints WHERE thread_id = 't1'`,
      );
      expect(runIds.rows.map((r: { run_id: string | null }) => r.run_id)).toContain("r1");
    } finally {
      await client.end();
    }

    const second = await createCheckpointer({ type: "postgres", connectionString: url!, schema });
    try {
      const state = await echoGraph(second.checkpointer).getState({ configurable: { thread_id: "t1" } });
      expect(state.values.messages.map((m: { content: unknown }) => m.content)).toEqual(["hi", "echo 1"]);
      await second.checkpointer.deleteThread("t1");
      expect(await second.checkpointer.getTuple({ configurable: { thread_id: "t1" } })).toBeUndefined();
    } finally {
      await second.close();
    }
  });

  it("every operation works on a fresh schema before the first checkpoint (set up at creation)", async () => {
    const freshSchema = uniqueName("rt_ckpt_fresh");
    schemasToDrop.push(freshSchema);
    const { checkpointer, close } = await createCheckpointer({
      type: "postgres",
      connectionString: url!,
      schema: freshSchema,
    });
    try {
      await expectUsableBeforeFirstCheckpoint(checkpointer);
    } finally {
      await close();
    }
  });

  it("several instances starting together on a fresh schema all set it up (migrations run once, no duplicate-key race)", async () => {
    const handles = await Promise.all(
      Array.from({ length: 5 }, () =>
        createCheckpointer({ type: "postgres", connectionString: url!, schema: raceSchema }),
      ),
    );
    try {
      for (const [i, handle] of handles.entries()) {
        await echoGraph(handle.checkpointer).invoke(
          { messages: [new HumanMessage("hi")] },
          { configurable: { thread_id: `race-${i}` } },
        );
      }
      const state = await echoGraph(handles[0]!.checkpointer).getState({ configurable: { thread_id: "race-4" } });
      expect(state.values.messages).toHaveLength(2);
    } finally {
      await Promise.all(handles.map((h) => h.close()));
    }
  });
});
