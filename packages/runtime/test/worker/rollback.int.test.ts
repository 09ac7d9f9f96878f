import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { afterAll, beforeAll } from "vitest";
import { createCheckpointer, type CheckpointerHandle } from "../../src/checkpointers/create-checkpointer.js";
import { dropSchema } from "../support/pg-schemas.js";
import { requirePostgres, uniqueName } from "../support/services.js";
import { describeRollback } from "../support/worker/rollback-suite.js";

const url = await requirePostgres();
const schema = uniqueName("rt_rollback");
let handle: CheckpointerHandle | undefined;

beforeAll(async () => {
  if (!url) return;
  handle = await createCheckpointer({ type: "postgres", connectionString: url, schema });
});

afterAll(async () => {
  await handle?.close();
  if (url) await dropSchema(url, schema);
});

describeRollback("PostgresSaver", (): BaseCheckpointSaver => handle!.checkpointer, { skip: !url });
