/**
 * Users' own assistants on the real server, through both LangGraph SDK lines
 * (1.15 and 2.0.0) over a socket:
 *
 * - alice creates, updates (versions), lists versions, sets the latest, gets,
 *   searches, counts and deletes her assistants with `client.assistants.*`;
 * - a run on her assistant carries its config and context to the model: the
 *   scripted endpoint sees the assistant's `model_name` (config) and offers
 *   `write_todos` (its context's `is_plan_mode`), which a run on the system
 *   assistant does not;
 * - bob (another API key) cannot see, change, delete or run alice's assistant
 *   (404, as for a missing one) and finds none of hers; root (an admin) sees them;
 * - on PostgreSQL, two server instances share the assistants, and concurrent
 *   updates through both produce distinct versions.
 */
import { startScriptedOpenAI, type RecordedRequest, type ScriptedOpenAI } from "@deerflow/agent/testing";
import { Client as Client115 } from "@langchain/langgraph-sdk";
import { Client as Client2 } from "sdk2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEAD_AGENT_ASSISTANT_ID } from "../../src/server/create-server.js";
import { scriptedModelsYaml } from "../support/scripted-models.js";
import { HOST_BASH_CONFIG, embeddedEnv, startServer, statusOf, type TestServer } from "../support/server-harness.js";
import { dropSchemas, requirePostgres, uniqueName } from "../support/services.js";
import { tempDirs } from "../support/temp-dir.js";

const KEYS = { alice: "alice-key-0123456789", bob: "bob-key-0123456789", root: "root-key-0123456789" } as const;
type Who = keyof typeof KEYS;
const GRAPH = LEAD_AGENT_ASSISTANT_ID;

type SdkClient = Client115;
const SDKS: ReadonlyArray<readonly [string, (apiUrl: string, apiKey: string) => SdkClient]> = [
  ["@langchain/langgraph-sdk 1.15", (apiUrl, apiKey) => new Client115({ apiUrl, apiKey })],
  [
    "sdk2 (@langchain/langgraph-sdk 2.0.0)",
    (apiUrl, apiKey) => new Client2({ apiUrl, apiKey }) as unknown as SdkClient,
  ],
];

/** Two models on one scripted endpoint (`main` first, the default), told apart by the request's model field. */
function configYaml(baseURL: string): string {
  return `${scriptedModelsYaml(baseURL, ["main", "second"])}${HOST_BASH_CONFIG}skills:
  enabled: false
server:
  api_keys:
    - { key: ${KEYS.alice}, user_id: alice }
    - { key: ${KEYS.bob}, user_id: bob }
    - { key: ${KEYS.root}, user_id: root, admin: true }
`;
}

const human = (content: string) => ({ messages: [{ role: "user", content }] });

/** The chat requests of the turn whose user message holds `marker`. */
function requestsFor(openai: ScriptedOpenAI, marker: string): RecordedRequest[] {
  return openai.requests.filter((r) =>
    r.messages.some((m) => m["role"] === "user" && JSON.stringify(m["content"]).includes(marker)),
  );
}

const temp = tempDirs();

describe("user-created assistants on the real server", () => {
  let openai: ScriptedOpenAI;
  let t: TestServer;

  beforeAll(async () => {
    openai = await startScriptedOpenAI({ script: () => ({ text: "Noted." }) });
    t = await startServer(await temp.make(), configYaml(openai.baseURL));
  }, 120_000);

  afterAll(async () => {
    await t?.server.close({ drain: false });
    await openai?.close();
    await temp.cleanup();
  });

  describe.each(SDKS)("%s", (_line, makeClient) => {
    const as = (who: Who) => makeClient(`${t.url}/api`, KEYS[who]);
    const tag = `tag-${Math.random().toString(36).slice(2)}`;

    it("create, update, getVersions, setLatest, get, search, count and delete", async () => {
      const alice = as("alice");
      const created = await alice.assistants.create({
        graphId: GRAPH,
        name: "Researcher",
        description: "Digs",
        config: { configurable: { model_name: "second" } },
        context: { is_plan_mode: true },
        metadata: { tag, step: 1 },
      });
      expect(created).toMatchObject({
        graph_id: GRAPH,
        name: "Researcher",
        description: "Digs",
        version: 1,
        config: { configurable: { model_name: "second" } },
        context: { is_plan_mode: true },
        metadata: { tag, step: 1 },
      });
      const id = created.assistant_id;
      const updated = await alice.assistants.update(id, { metadata: { step: 2 }, name: "Researcher v2" });
      expect(updated).toMatchObject({ version: 2, name: "Researcher v2", metadata: { tag, step: 2 } });
      const versions = await alice.assistants.getVersions(id);
      expect(versions.map((v) => v.version)).toEqual([2, 1]);
      expect(versions[1]).toMatchObject({ name: "Researcher", metadata: { tag, step: 1 } });
      const back = await alice.assistants.setLatest(id, 1);
      expect(back).toMatchObject({ version: 1, name: "Researcher" });
      expect(await alice.assistants.get(id)).toMatchObject({ assistant_id: id, version: 1, name: "Researcher" });
      const found = await alice.assistants.search({ metadata: { tag }, limit: 10 });
      expect(found.map((a) => a.assistant_id)).toEqual([id]);
      expect(await alice.assistants.count({ metadata: { tag } })).toBe(1);
      // The system assistant is listed for everyone.
      expect((await alice.assistants.search({ graphId: GRAPH, limit: 100 })).map((a) => a.assistant_id)).toContain(
        LEAD_AGENT_ASSISTANT_ID,
      );
      await alice.assistants.delete(id);
      expect(await statusOf(alice.assistants.get(id))).toBe(404);
      expect(await alice.assistants.count({ metadata: { tag } })).toBe(0);
    });

    it("a run on the assistant reaches the model with its config (model_name) and context (plan mode)", async () => {
      const alice = as("alice");
      const assistant = await alice.assistants.create({
        graphId: GRAPH,
        config: { configurable: { model_name: "second" } },
        context: { is_plan_mode: true },
        metadata: { tag },
      });
      const thread = await alice.threads.create();
      const marker = `MARK-${tag}-assistant`;
      const state = (await alice.runs.wait(thread.thread_id, assistant.assistant_id, {
        input: human(marker),
      })) as { messages: Array<{ type: string; content: unknown }> };
      expect(state).toHaveProperty("messages");
      expect(state.messages.at(-1)).toMatchObject({ type: "ai" });
      const calls = requestsFor(openai, marker);
      expect(calls.length).toBeGreaterThan(0);
      expect(calls.every((r) => r.model === "scripted-second")).toBe(true);
      expect(calls.some((r) => r.toolNames.includes("write_todos"))).toBe(true);
      const run = (await alice.runs.list(thread.thread_id))[0];
      expect(run?.assistant_id).toBe(assistant.assistant_id);

      // The same turn on the system assistant: the default model, no plan mode.
      const other = await alice.threads.create();
      const plain = `MARK-${tag}-system`;
      await alice.runs.wait(other.thread_id, LEAD_AGENT_ASSISTANT_ID, { input: human(plain) });
      const plainCalls = requestsFor(openai, plain);
      expect(plainCalls.length).toBeGreaterThan(0);
      expect(plainCalls.every((r) => r.model === "scripted-main")).toBe(true);
      expect(plainCalls.some((r) => r.toolNames.includes("write_todos"))).toBe(false);
    });

    it("bob cannot see, change, delete or run alice's assistant; root (admin) sees it", async () => {
      const alice = as("alice");
      const bob = as("bob");
      const root = as("root");
      const secret = await alice.assistants.create({
        graphId: GRAPH,
        name: "alice private",
        metadata: { tag, secret: true },
      });
      const id = secret.assistant_id;
      const missing = "00000000-0000-4000-8000-00000000beef";
      for (const target of [id, missing]) {
        expect(await statusOf(bob.assistants.get(target))).toBe(404);
        expect(await statusOf(bob.assistants.update(target, { name: "hijacked" }))).toBe(404);
        expect(await statusOf(bob.assistants.getVersions(target))).toBe(404);
        expect(await statusOf(bob.assistants.setLatest(target, 1))).toBe(404);
        expect(await statusOf(bob.assistants.delete(target))).toBe(404);
        expect(await statusOf(bob.assistants.getGraph(target))).toBe(404);
        const thread = await bob.threads.create();
        expect(await statusOf(bob.runs.wait(thread.thread_id, target, { input: human("hi") }))).toBe(404);
        expect(await bob.runs.list(thread.thread_id)).toEqual([]);
      }
      expect(await bob.assistants.search({ metadata: { tag }, limit: 100 })).toEqual([]);
      expect(await bob.assistants.count({ metadata: { tag } })).toBe(0);
      expect((await alice.assistants.get(id)).name).toBe("alice private");
      expect((await root.assistants.search({ metadata: { tag, secret: true } })).map((a) => a.assistant_id)).toEqual([
        id,
      ]);
      expect(await root.assistants.get(id)).toMatchObject({ assistant_id: id });
      // Bob's own assistants are his alone.
      const bobs = await bob.assistants.create({ graphId: GRAPH, metadata: { tag, mine: "bob" } });
      expect((await alice.assistants.search({ metadata: { tag, mine: "bob" } })).length).toBe(0);
      expect(await statusOf(alice.assistants.get(bobs.assistant_id))).toBe(404);
      // System assistants are read-only for everyone, admins included.
      expect(await statusOf(root.assistants.update(LEAD_AGENT_ASSISTANT_ID, { name: "x" }))).toBe(403);
      expect(await statusOf(root.assistants.delete(LEAD_AGENT_ASSISTANT_ID))).toBe(403);
    });
  });
});

describe("user-created assistants on PostgreSQL with two server instances", () => {
  let databaseUrl: string | null = null;
  const schema = uniqueName("asst_e2e");
  const servers: TestServer[] = [];
  let openai: ScriptedOpenAI;

  beforeAll(async () => {
    databaseUrl = await requirePostgres();
    if (databaseUrl === null) return;
    openai = await startScriptedOpenAI({ script: () => ({ text: "Noted." }) });
    const env = embeddedEnv({ DATABASE_URL: databaseUrl, DEERFLOW_POSTGRES_SCHEMA: schema });
    // Started together: both migrate the same schema at once.
    const dirs = [await temp.make(), await temp.make()];
    servers.push(...(await Promise.all(dirs.map((dir) => startServer(dir, configYaml(openai.baseURL), { env })))));
  }, 180_000);

  afterAll(async () => {
    for (const s of servers) await s.server.close({ drain: false });
    await openai?.close();
    if (databaseUrl !== null) await dropSchemas(databaseUrl, [schema]);
  });

  it("shares assistants between instances; concurrent updates through both get distinct versions", async (ctx) => {
    if (databaseUrl === null) ctx.skip("PostgreSQL is not reachable (CI=true makes this a failure)");
    const [one, two] = servers.map((s) => new Client115({ apiUrl: `${s.url}/api`, apiKey: KEYS.alice }));
    const bobOnTwo = new Client115({ apiUrl: `${servers[1]!.url}/api`, apiKey: KEYS.bob });
    const created = await one!.assistants.create({ graphId: GRAPH, name: "shared", metadata: { n: 0 } });
    const id = created.assistant_id;
    expect(await two!.assistants.get(id)).toMatchObject({ name: "shared", version: 1 });
    expect(await statusOf(bobOnTwo.assistants.get(id))).toBe(404);
    const writers = 8;
    const results = await Promise.all(
      Array.from({ length: writers }, (_, i) =>
        (i % 2 === 0 ? one! : two!).assistants.update(id, { metadata: { [`w${i}`]: i } }),
      ),
    );
    expect(results.map((a) => a.version).sort((a, b) => a - b)).toEqual(
      Array.from({ length: writers }, (_, i) => i + 2),
    );
    const versions = await two!.assistants.getVersions(id, { limit: 100 });
    expect(versions.map((v) => v.version)).toEqual(Array.from({ length: writers + 1 }, (_, i) => writers + 1 - i));
    const latest = await one!.assistants.get(id);
    expect(Object.keys(latest.metadata ?? {}).filter((k) => k.startsWith("w"))).toHaveLength(writers);
    await two!.assistants.delete(id);
    expect(await statusOf(one!.assistants.get(id))).toBe(404);
  });
});
