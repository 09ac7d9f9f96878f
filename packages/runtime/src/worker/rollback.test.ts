import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { MemorySaver } from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { afterAll } from "vitest";
import { describeRollback } from "../../test/support/worker/rollback-suite.js";

describeRollback("MemorySaver", () => new MemorySaver());

const dir = mkdtempSync(path.join(os.tmpdir(), "rollback-sqlite-"));
const savers: SqliteSaver[] = [];
afterAll(() => {
  for (const saver of savers) saver.db.close();
  rmSync(dir, { recursive: true, force: true });
});
describeRollback("SqliteSaver", () => {
  const saver = SqliteSaver.fromConnString(path.join(dir, `${savers.length}.db`));
  savers.push(saver);
  return saver;
});
