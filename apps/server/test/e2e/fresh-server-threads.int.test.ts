/**
 * Thread operations on a freshly started server whose checkpointer has never
 * seen a run: delete, state and history work at once (the checkpointer is set
 * up at start), for the embedded SQLite checkpointer and for PostgreSQL, with
 * both SDK lines. Each case gets its own fresh server, and every request the
 * SDK sends is counted, so a 5xx retried into a 404 cannot pass unnoticed.
 */
import { Client as Client115 } from "@langchain/langgraph-sdk";
import { Client as Client2 } from "sdk2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDirs } from "../support/temp-dir.js";
import { embeddedEnv, startServer, statusOf, type TestServer } from "../support/server-harness.js";
import { dropSchemas, requirePostgres, uniqueName } from "../support/services.js";

/** The 1.x client type; the 2.0.0 client has the same API for everything used here. */
type SdkClient = Client115;
type MakeClient = (apiUrl: string, fetchImpl: typeof fetch) => SdkClient;

const SDKS: ReadonlyArray<readonly [string, MakeClient]> = [
  [
    "@langchain/langgraph-sdk 1.15",
    (apiUrl, fetchImpl) => new Client115({ apiUrl, apiKey: null, callerOptions: { fetch: fetchImpl } }),
  ],
  [
    "sdk2 (@langchain/langgraph-sdk 2.0.0)",
    (apiUrl, fetchImpl) =>
      new Client2({ apiUrl, apiKey: null, callerOptions: { fetch: fetchImpl } }) as unknown as SdkClient,
  ],
];

const CHECKPOINTERS = ["sqlite", "postgres"] as const;
const CASES = CHECKPOINTERS.flatMap((checkpointer) => SDKS.map(([sdk, make]) => [checkpointer, sdk, make] as const));

const temp = tempDirs();
const schemas: string[] = [];
let databaseUrl: string | null = null;

beforeAll(async () => {
  databaseUrl = await requirePostgres();
});

afterAll(async () => {
  if (databaseUrl !== null && schemas.length > 0) await dropSchemas(databaseUrl, schemas);
  await temp.cleanup();
});

/** A fetch that records `METHOD path` of every request (retries included). */
function countingFetch(): { fetch: typeof fetch; sent: string[] } {
  const sent: string[] = [];
  const wrapped: typeof fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    sent.push(`${(init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase()} ${url.pathname}`);
    return fetch(input, init);
  };
  return { fetch: wrapped, sent };
}

describe.each(CASES)("a fresh server with the %s checkpointer, through %s", (checkpointer, _sdk, makeClient) => {
  let server: TestServer | undefined;
  let client: SdkClient;
  let sent: string[];

  beforeAll(async () => {
    if (checkpointer === "postgres" && databaseUrl === null) return;
    const dir = await temp.make("deerflow-fresh-");
    let env = embeddedEnv();
    if (checkpointer === "postgres") {
      const schema = uniqueName("srv_fresh");
      schemas.push(schema);
      env = embeddedEnv({ DATABASE_URL: databaseUrl!, DEERFLOW_POSTGRES_SCHEMA: schema });
    }
    server = await startServer(dir, "storage:\n  data_dir: ./data\nskills:\n  enabled: false\n", { env });
    const counting = countingFetch();
    sent = counting.sent;
    client = makeClient(`${server.url}/api`, counting.fetch);
  });

  afterAll(async () => {
    await server?.server.close({ drain: false });
  });

  it("uses the checkpointer under test", (ctx) => {
    if (server === undefined) return ctx.skip();
    const expected = checkpointer === "sqlite" ? "checkpointer: file " : "checkpointer: postgres ";
    expect(server.logs.messages().some((m) => m.startsWith(expected))).toBe(true);
  });

  it("reads the state and history of a thread that never ran, before any run on the server", async (ctx) => {
    if (server === undefined) return ctx.skip();
    const thread = await client.threads.create();
    const state = await client.threads.getState(thread.thread_id);
    expect(state).toMatchObject({ values: {}, next: [], tasks: [], checkpoint: null });
    expect(await client.threads.getHistory(thread.thread_id)).toEqual([]);
    expect((await client.threads.get(thread.thread_id)).status).toBe("idle");
  });

  it("deletes a thread that never ran in one request (204), after which it is gone (404)", async (ctx) => {
    if (server === undefined) return ctx.skip();
    const thread = await client.threads.create();
    sent.length = 0;
    await expect(client.threads.delete(thread.thread_id)).resolves.toBeUndefined();
    // One DELETE: a 5xx would have been retried by the SDK (and then answered 404).
    expect(sent).toEqual([`DELETE /api/threads/${thread.thread_id}`]);
    const raw = await fetch(`${server.url}/api/threads/${thread.thread_id}`, { method: "DELETE" });
    expect(raw.status).toBe(404);
    expect(await statusOf(client.threads.get(thread.thread_id))).toBe(404);
    expect(await statusOf(client.threads.getState(thread.thread_id))).toBe(404);
    expect(await statusOf(client.threads.getHistory(thread.thread_id))).toBe(404);
  });
});
