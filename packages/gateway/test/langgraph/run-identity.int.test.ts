/**
 * A run's user comes from the API key, over a real socket: the graph sees the
 * caller's id in `config.configurable.user_id` whatever the body or the
 * assistant's config says; a body naming another user (in
 * `config.configurable.user_id` or `context.user_id`) is refused with 403 on
 * every run-creating route and leaves nothing behind; a body repeating the
 * caller's own id is accepted. A body naming another thread runs on the path's.
 */
import type { AddressInfo } from "node:net";
import { LocalRunCoordinator, MemoryRunStore, MemoryStreamBridge, RunManager } from "@deerflow/runtime";
import { AIMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { END, MemorySaver, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AssistantRegistry, createGateway, langgraphRoutes } from "../../src/index.js";

const ALICE_KEY = "alice-key-0123456789";
const BOB_KEY = "bob-key-0123456789";
const WHOAMI_ID = "6f0c2d1e-5b8a-4c3d-9e7f-0000000000a1";

/** Answers with the user id the run's config carries (what the DeerFlow agent picks its sandbox with). */
function whoami(checkpointer?: BaseCheckpointSaver) {
  return new StateGraph(MessagesAnnotation)
    .addNode("whoami", async (_state, config: RunnableConfig) => {
      const context = (config as { context?: Record<string, unknown> }).context;
      return {
        messages: [
          new AIMessage(
            `configurable=${String(config.configurable?.["user_id"])} context=${String(context?.["user_id"])}`,
          ),
        ],
      };
    })
    .addEdge(START, "whoami")
    .addEdge("whoami", END)
    .compile(checkpointer === undefined ? {} : { checkpointer });
}

interface Served {
  readonly app: FastifyInstance;
  readonly manager: RunManager;
  readonly apiUrl: string;
}

async function serve(auth: boolean): Promise<Served> {
  const checkpointer = new MemorySaver();
  const assistants = new AssistantRegistry([
    {
      assistantId: WHOAMI_ID,
      graphId: "whoami",
      name: "Who am I",
      // An operator's config naming a user must not decide the run's user either.
      config: { configurable: { user_id: "operator" } },
      graph: ({ checkpointer: saver }) => whoami(saver),
      stateGraph: whoami,
    },
  ]);
  const manager = new RunManager({
    graphs: assistants.graphs,
    checkpointer,
    store: new MemoryRunStore(),
    bridge: new MemoryStreamBridge(),
    coordinator: new LocalRunCoordinator(),
  });
  const app = await createGateway({
    routes: [langgraphRoutes({ manager, checkpointer, assistants, heartbeatMs: 50 })],
    ...(auth
      ? {
          auth: {
            apiKeys: [
              { key: ALICE_KEY, userId: "alice" },
              { key: BOB_KEY, userId: "bob" },
            ],
          },
        }
      : {}),
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  return { app, manager, apiUrl: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api` };
}

const THREAD_ROUTES = ["/runs", "/runs/stream", "/runs/wait"] as const;
const STATELESS_ROUTES = ["/runs", "/runs/stream", "/runs/wait"] as const;
const hello = { messages: [{ role: "user", content: "who am I?" }] };

describe("a run's user over HTTP, with API keys", () => {
  let served: Served;

  beforeAll(async () => {
    served = await serve(true);
  });

  afterAll(async () => {
    await served.app.close();
    await served.manager.shutdown({ drain: false, timeoutMs: 2_000 });
  });

  async function post(key: string, path: string, body: unknown): Promise<{ status: number; text: string }> {
    const res = await fetch(`${served.apiUrl}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key },
      body: JSON.stringify(body),
    });
    return { status: res.status, text: await res.text() };
  }

  async function newThread(key: string): Promise<string> {
    return (JSON.parse((await post(key, "/threads", {})).text) as { thread_id: string }).thread_id;
  }

  /** What the graph saw in the thread's only run, and the user id stored with the run. */
  async function seenBy(threadId: string): Promise<{ answer: string; stored: unknown }> {
    const [run] = await served.manager.list(threadId);
    await served.manager.join(run!.runId);
    const res = await fetch(`${served.apiUrl}/threads/${threadId}/runs/${run!.runId}`, {
      headers: { "x-api-key": ALICE_KEY },
    });
    const wire = (await res.json()) as { kwargs: { config: { configurable: Record<string, unknown> } } };
    const history = JSON.parse((await post(ALICE_KEY, `/threads/${threadId}/history`, { limit: 1 })).text) as Array<{
      values: { messages: Array<{ content: string }> };
    }>;
    return {
      answer: history[0]?.values.messages.at(-1)?.content ?? "",
      stored: wire.kwargs.config.configurable["user_id"],
    };
  }

  describe.each([
    ["config.configurable.user_id", { config: { configurable: { user_id: "bob" } } }],
    ["context.user_id", { context: { user_id: "bob" } }],
  ])("another user in %s", (field, claim) => {
    it.each(THREAD_ROUTES)(
      `is refused on POST /threads/:thread_id%s with 403 naming ${field}, creating no run`,
      async (route) => {
        const threadId = await newThread(ALICE_KEY);
        const res = await post(ALICE_KEY, `/threads/${threadId}${route}`, {
          assistant_id: "whoami",
          input: hello,
          ...claim,
        });
        expect(res.status).toBe(403);
        expect((JSON.parse(res.text) as { detail: string }).detail).toContain(field);
        expect(await served.manager.list(threadId)).toEqual([]);
        // Only its owner: no graph recorded, as no run was admitted.
        expect((await served.manager.store.getThread(threadId))?.metadata).toEqual({ owner: "alice" });
      },
    );

    it.each(STATELESS_ROUTES)(`is refused on stateless POST %s with 403, creating no thread`, async (route) => {
      const before = await served.manager.store.countThreads({});
      const res = await post(ALICE_KEY, route, { assistant_id: "whoami", input: hello, ...claim });
      expect(res.status).toBe(403);
      expect(await served.manager.store.countThreads({})).toBe(before);
    });
  });

  it.each(THREAD_ROUTES)(
    "runs as the key's user when the body names none (POST /threads/:thread_id%s), over the assistant's config",
    async (route) => {
      const threadId = await newThread(ALICE_KEY);
      expect(
        (await post(ALICE_KEY, `/threads/${threadId}${route}`, { assistant_id: "whoami", input: hello })).status,
      ).toBe(200);
      expect(await seenBy(threadId)).toEqual({ answer: "configurable=alice context=undefined", stored: "alice" });
    },
  );

  it.each(THREAD_ROUTES)("accepts the caller's own id in the body (POST /threads/:thread_id%s)", async (route) => {
    const threadId = await newThread(ALICE_KEY);
    const body = {
      assistant_id: "whoami",
      input: hello,
      config: { configurable: { user_id: "alice" } },
      context: { user_id: "alice" },
    };
    expect((await post(ALICE_KEY, `/threads/${threadId}${route}`, body)).status).toBe(200);
    expect(await seenBy(threadId)).toEqual({ answer: "configurable=alice context=alice", stored: "alice" });
  });

  it("cannot reach another thread through config.configurable.thread_id or checkpoint.thread_id", async () => {
    const other = await newThread(BOB_KEY);
    await post(BOB_KEY, `/threads/${other}/runs/wait`, { assistant_id: "whoami", input: hello });
    const otherBefore = await post(BOB_KEY, `/threads/${other}/history`, { limit: 10 });
    const threadId = await newThread(ALICE_KEY);
    const body = {
      assistant_id: "whoami",
      input: hello,
      config: { configurable: { thread_id: other } },
      checkpoint: { thread_id: other },
    };
    expect((await post(ALICE_KEY, `/threads/${threadId}/runs/wait`, body)).status).toBe(200);
    expect((await seenBy(threadId)).answer).toBe("configurable=alice context=undefined");
    expect(await post(BOB_KEY, `/threads/${other}/history`, { limit: 10 })).toEqual(otherBefore);
  });

  it("runs a stateless run as the key's user", async () => {
    const res = await post(BOB_KEY, "/runs/wait", { assistant_id: "whoami", input: hello });
    expect(res.status).toBe(200);
    expect((JSON.parse(res.text) as { messages: Array<{ content: string }> }).messages.at(-1)?.content).toBe(
      "configurable=bob context=undefined",
    );
  });

  it("refuses the other key's user the same way (bob naming alice)", async () => {
    const threadId = await newThread(BOB_KEY);
    const res = await post(BOB_KEY, `/threads/${threadId}/runs/wait`, {
      assistant_id: "whoami",
      input: hello,
      config: { configurable: { user_id: "alice" } },
    });
    expect(res.status).toBe(403);
  });
});

describe("a run's user over HTTP, without authentication", () => {
  let served: Served;

  beforeAll(async () => {
    served = await serve(false);
  });

  afterAll(async () => {
    await served.app.close();
    await served.manager.shutdown({ drain: false, timeoutMs: 2_000 });
  });

  it("is user default; naming another user is refused", async () => {
    const post = (body: unknown) =>
      fetch(`${served.apiUrl}/runs/wait`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const res = await post({ assistant_id: "whoami", input: hello });
    expect(((await res.json()) as { messages: Array<{ content: string }> }).messages.at(-1)?.content).toBe(
      "configurable=default context=undefined",
    );
    expect(
      (await post({ assistant_id: "whoami", input: hello, config: { configurable: { user_id: "alice" } } })).status,
    ).toBe(403);
    expect(
      (await post({ assistant_id: "whoami", input: hello, config: { configurable: { user_id: "default" } } })).status,
    ).toBe(200);
  });
});
