import { FileAgentStore, StoreAgentStore } from "@deerflow/agent";
import { InMemoryStore } from "@langchain/langgraph";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig, ServerConfigError } from "../config/index.js";
import { tempDirs, writeFiles } from "../../test/support/temp-dir.js";
import { createServerAgents } from "./server-agents.js";

const tmp = tempDirs();
afterEach(() => tmp.cleanup());

async function load(yaml: string) {
  const dir = await tmp.make();
  await writeFiles(dir, { "config.yaml": yaml });
  return loadConfig({ cwd: dir, env: {} });
}

const MODEL = "models:\n  - { name: demo, use: demo }\n";

describe("agents_api and agent_storage", () => {
  it("default to routes off and DeerFlow's folders under the data dir", async () => {
    const { config } = await load(MODEL);
    expect(config.customAgents).toEqual({ apiEnabled: false, storage: "file" });
    const agents = createServerAgents({ config, graphStore: new InMemoryStore(), hasModel: () => true });
    expect(agents.store).toBeInstanceOf(FileAgentStore);
    expect(agents.lead.store).toBe(agents.store);
  });

  it("store and DeerFlow's db both mean the graph store", async () => {
    for (const backend of ["store", "db"]) {
      const { config } = await load(`${MODEL}agents_api: { enabled: true }\nagent_storage: { backend: ${backend} }\n`);
      expect(config.customAgents).toEqual({ apiEnabled: true, storage: "store" });
      const agents = createServerAgents({ config, graphStore: new InMemoryStore(), hasModel: () => true });
      expect(agents.store).toBeInstanceOf(StoreAgentStore);
    }
  });

  it("refuses an unknown backend and a non-boolean gate, naming the key", async () => {
    for (const yaml of ["agent_storage: { backend: sql }\n", "agents_api: { enabled: maybe }\n"]) {
      const err = await load(`${MODEL}${yaml}`).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(ServerConfigError.isInstance(err), yaml).toBe(true);
      expect(String((err as Error).message), yaml).toMatch(/agent_storage|agents_api/);
    }
  });
});
