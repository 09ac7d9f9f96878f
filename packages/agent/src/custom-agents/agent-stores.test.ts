import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { errorCodeOf as codeOf } from "@deerflow/kernel";
import { InMemoryStore } from "@langchain/langgraph";
import { afterEach, describe, expect, it } from "vitest";
import { agentStoreConformance } from "../testing/agent-store-conformance.js";
import { agentConfigOf } from "./agent-config.js";
import { FileAgentStore } from "./file-agent-store.js";
import { StoreAgentStore } from "./store-agent-store.js";

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "agent-store-"));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => fs.rm(d, { recursive: true, force: true })));
});

agentStoreConformance({
  name: "FileAgentStore",
  makeStore: async () => ({ store: new FileAgentStore({ dataDir: await tempDir() }) }),
  describe,
  it,
  expect,
});

agentStoreConformance({
  name: "StoreAgentStore",
  makeStore: async () => ({ store: new StoreAgentStore({ store: new InMemoryStore() }) }),
  describe,
  it,
  expect,
});

describe("FileAgentStore layout", () => {
  it("writes DeerFlow's files: users/{uid}/agents/{name}/config.yaml + SOUL.md, no temp files left", async () => {
    const dataDir = await tempDir();
    const store = new FileAgentStore({ dataDir });
    await store.create("alice", agentConfigOf("Helper", { description: "d", skills: ["a"] }), "be kind");
    const dir = path.join(dataDir, "users", "alice", "agents", "helper");
    expect((await fs.readdir(dir)).sort()).toEqual(["SOUL.md", "config.yaml"]);
    const yaml = await fs.readFile(path.join(dir, "config.yaml"), "utf8");
    expect(yaml).toContain("name: helper");
    expect(yaml).toContain("description: d");
    expect(yaml).not.toContain("model:"); // unset fields are not written
    expect(await fs.readFile(path.join(dir, "SOUL.md"), "utf8")).toBe("be kind");
    await store.setDefaultSoul("global");
    expect(await fs.readFile(path.join(dataDir, "SOUL.md"), "utf8")).toBe("global");
    await store.setUserProfile("alice", "profile");
    expect(await fs.readFile(path.join(dataDir, "users", "alice", "USER.md"), "utf8")).toBe("profile");
  });

  it("reads a hand-written config.yaml, ignoring its name: the folder names the agent", async () => {
    const dataDir = await tempDir();
    const dir = path.join(dataDir, "users", "bob", "agents", "writer");
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(
      path.join(dir, "config.yaml"),
      "name: something-else\ndescription: Writes\nmodel: fast\nmodel_settings:\n  temperature: 1.5\ngithub:\n  installation_id: 3\n",
    );
    const store = new FileAgentStore({ dataDir });
    expect(await store.get("bob", "writer")).toMatchObject({
      name: "writer",
      model: "fast",
      model_settings: { temperature: 1.5 },
      extra: { github: { installation_id: 3 } },
    });
    expect(await store.getSoul("bob", "writer")).toBeUndefined();
  });

  it("a folder without config.yaml is no agent; deleting it is AGENT_MEMORY_ONLY and keeps it", async () => {
    const dataDir = await tempDir();
    const dir = path.join(dataDir, "users", "bob", "agents", "mem");
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, "memory.json"), "{}");
    const store = new FileAgentStore({ dataDir });
    expect(await store.exists("bob", "mem")).toBe(false);
    expect(await store.list("bob")).toEqual([]);
    expect(await codeOf(store.delete("bob", "mem"))).toBe("AGENT_MEMORY_ONLY");
    expect(await fs.readFile(path.join(dir, "memory.json"), "utf8")).toBe("{}");
    // Creating the agent there keeps the memory file.
    await store.create("bob", agentConfigOf("mem", {}), "soul");
    expect((await fs.readdir(dir)).sort()).toEqual(["SOUL.md", "config.yaml", "memory.json"]);
  });

  it("the legacy layout is read (shadowed by the user's own), never written", async () => {
    const dataDir = await tempDir();
    const legacy = path.join(dataDir, "agents", "old");
    await fs.mkdir(legacy, { recursive: true });
    await fs.writeFile(path.join(legacy, "config.yaml"), "description: legacy\n");
    await fs.writeFile(path.join(legacy, "SOUL.md"), "legacy soul");
    const store = new FileAgentStore({ dataDir });
    expect((await store.list("carol")).map((a) => [a.name, a.description])).toEqual([["old", "legacy"]]);
    expect(await store.getSoul("carol", "old")).toBe("legacy soul");
    expect(await codeOf(store.create("carol", agentConfigOf("old", {}), "x"))).toBe("AGENT_EXISTS");
    expect(await codeOf(store.update("carol", "old", { soul: "x" }))).toBe("AGENT_LEGACY_ONLY");
    expect(await codeOf(store.update("carol", "old", { soul: "x" }, { upsert: true }))).toBe("AGENT_LEGACY_ONLY");
    expect(await codeOf(store.delete("carol", "old"))).toBe("AGENT_LEGACY_ONLY");
    expect(await fs.readFile(path.join(legacy, "SOUL.md"), "utf8")).toBe("legacy soul");
  });

  it("a broken config.yaml is AGENT_CONFIG_INVALID on get and skipped by list", async () => {
    const dataDir = await tempDir();
    const store = new FileAgentStore({ dataDir });
    await store.create("dave", agentConfigOf("good", {}), "soul");
    for (const [name, text] of [
      ["badyaml", "description: [unclosed\n"],
      ["badsettings", "model_settings:\n  temperature: 9\n"],
      ["extrakey", "model_settings:\n  top_p: 0.1\n"],
    ] as const) {
      const dir = path.join(dataDir, "users", "dave", "agents", name);
      await fs.mkdir(dir, { recursive: true });
      await fs.writeFile(path.join(dir, "config.yaml"), text);
      expect(await codeOf(store.get("dave", name)), name).toBe("AGENT_CONFIG_INVALID");
    }
    expect((await store.list("dave")).map((a) => a.name)).toEqual(["good"]);
  });

  it("a huge config.yaml is refused unparsed", async () => {
    const dataDir = await tempDir();
    const dir = path.join(dataDir, "users", "erin", "agents", "huge");
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, "config.yaml"), `description: "${"x".repeat(300_000)}"\n`);
    expect(await codeOf(new FileAgentStore({ dataDir }).get("erin", "huge"))).toBe("AGENT_CONFIG_INVALID");
  });

  it("a name that is a path is refused before any file is touched", async () => {
    const dataDir = await tempDir();
    const store = new FileAgentStore({ dataDir });
    // A name can never be a path: the rule refuses separators before any file is touched.
    expect(await codeOf(store.create("frank", { ...agentConfigOf("x", {}), name: "../../outside" }, "s"))).toBe(
      "AGENT_NAME_INVALID",
    );
    expect(await fs.readdir(dataDir)).toEqual([]);
  });
});

describe("StoreAgentStore layout", () => {
  it("keeps one record per agent under the user's namespace", async () => {
    const backing = new InMemoryStore();
    const store = new StoreAgentStore({ store: backing });
    await store.create("a.b", agentConfigOf("x", { model: "m" }), "soul");
    const item = await backing.get(["deerflow", "agents", "users", "a%2Eb"], "x");
    expect(item?.value).toEqual({ config: { name: "x", description: "", model: "m" }, soul: "soul" });
  });
});
