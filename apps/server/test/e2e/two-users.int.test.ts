/**
 * Two users and an admin on one real server (scripted model; alice and bob,
 * users, and root, an admin), through HTTP and both LangGraph SDK lines (1.15
 * and 2.0.0), one server per identity source and line. The identities come
 * from configured API keys (`server.api_keys`, user ids are the names) or
 * from accounts (`auth.enabled`: root by the first-admin initialisation,
 * alice and bob created by root, each calling with a per-user API key; uuid
 * user ids). With accounts, every attempt of bob's is made again through his
 * browser session (cookie + X-CSRF-Token):
 *
 * - for every route family, bob gets 404 for alice's resource (the same answer
 *   as for a missing one), finds none of hers in his searches and counts, and
 *   changes nothing of hers;
 * - the admin reaches every thread and run (per-user storage — files, store
 *   items, memory — stays per user for admins too: their own);
 * - every route of the OpenAPI document naming a thread or a run belongs to a
 *   family below, so a new route fails here until it is covered;
 * - a run's sandbox folder, uploads and memory follow the authenticated user
 *   whatever the request body says.
 *
 * Adding a family is one entry in FAMILIES: how bob tries to reach the
 * owner's resource, what a listing shows, and what the admin sees (and, when `AliceWorld` lacks it, one step
 * in `beforeAll` making it). Custom skills are per user (DeerFlow's model):
 * alice's, made by `skill_manage` in her run, is not bob's nor the admin's.
 * Custom agents and USER.md are per user for everyone too: the admin gets 404
 * for alice's agent like bob, and a run naming her agent fails as an unknown
 * agent before any model call (her assistant, like every assistant, the admin
 * does see).
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { RecordedRequest, ScriptStep } from "@deerflow/agent/testing";
import { Client as Client115 } from "@langchain/langgraph-sdk";
import { Client as Client2 } from "sdk2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEAD_AGENT_ASSISTANT_ID } from "../../src/server/create-server.js";
import { startScriptedServer, type ScriptedServer } from "../support/scripted-server.js";
import { statusOf } from "../support/server-harness.js";

const KEYS = { alice: "alice-key-0123456789", bob: "bob-key-0123456789", root: "root-key-0123456789" } as const;
type Who = keyof typeof KEYS;
const PASSWORDS: Readonly<Record<Who, string>> = {
  alice: "alice-pass-0123",
  bob: "bob-pass-0123",
  root: "root-pass-0123",
};
const ASSISTANT = LEAD_AGENT_ASSISTANT_ID;
/** A prompt the scripted model answers with a bash call that shows where the run's sandbox is. */
const SANDBOX_PROMPT = "SHOW-SANDBOX";
/** A prompt the scripted model answers with `skill_manage` creating ALICE_SKILL. */
const SAVE_SKILL_PROMPT = "SAVE-SKILL";
/** A prompt the scripted model answers with `read_file` of ALICE_SKILL's SKILL.md. */
const READ_SKILL_PROMPT = "READ-SKILL";
const ALICE_SKILL = "alice-heron-notes";
const ALICE_SKILL_MD = `---\nname: ${ALICE_SKILL}\ndescription: Alice's heron notes. Use when alice asks about herons.\n---\n\n# Herons\n`;
const ALICE_SKILL_FILE = `/mnt/skills/custom/${ALICE_SKILL}/SKILL.md`;

/** Alice's custom agent, its SOUL.md and her USER.md. */
const ALICE_AGENT = "alice-heron-keeper";
const ALICE_SOUL = "ALICE-SOUL: you keep herons.";
const ALICE_PROFILE = "ALICE-PROFILE: lives by the river.";

type SdkClient = Client115;
/** A client sending `headers` (an API key goes as the SDK's own `apiKey`; a cookie as a default header). */
type MakeClient = (apiUrl: string, headers: Readonly<Record<string, string>>) => SdkClient;
const sdkConfig = (apiUrl: string, headers: Readonly<Record<string, string>>) => {
  const { "x-api-key": apiKey, ...defaultHeaders } = headers;
  return { apiUrl, apiKey: apiKey ?? null, defaultHeaders };
};
const SDKS: ReadonlyArray<readonly [string, MakeClient]> = [
  ["@langchain/langgraph-sdk 1.15", (apiUrl, headers) => new Client115(sdkConfig(apiUrl, headers))],
  [
    "sdk2 (@langchain/langgraph-sdk 2.0.0)",
    (apiUrl, headers) => new Client2(sdkConfig(apiUrl, headers)) as unknown as SdkClient,
  ],
];

/** How a caller authenticates: its user id and the headers every request of it carries. */
interface Identity {
  readonly userId: string;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * Where the three callers come from: configured API keys (`server.api_keys`,
 * the user ids are the configured names) or accounts (`auth.enabled`: the
 * admin from the first-admin initialisation, alice and bob created by the
 * admin, each calling with an API key of their own; uuid user ids). An
 * account source also gives bob's browser session (cookie + CSRF token).
 */
interface IdentitySource {
  readonly name: string;
  /** `config.yaml` sections. */
  readonly yaml: string;
  readonly sessions: boolean;
  identities(url: string): Promise<{ readonly ids: Record<Who, Identity>; readonly bobSession?: Identity }>;
}

const CONFIGURED: IdentitySource = {
  name: "configured API keys",
  yaml: `server:
  api_keys:
    - { key: ${KEYS.alice}, user_id: alice }
    - { key: ${KEYS.bob}, user_id: bob }
    - { key: ${KEYS.root}, user_id: root, admin: true }
`,
  sessions: false,
  async identities() {
    const of = (who: Who): Identity => ({ userId: who, headers: { "x-api-key": KEYS[who] } });
    return { ids: { alice: of("alice"), bob: of("bob"), root: of("root") } };
  },
};

/** A response's cookies as the headers of a session: `Cookie` and the CSRF double-submit token. */
function sessionHeaders(res: Response): Record<string, string> {
  const pairs = res.headers.getSetCookie().map((line) => line.split(";")[0] ?? "");
  const csrf = pairs.find((p) => p.startsWith("csrf_token="))?.slice("csrf_token=".length);
  if (csrf === undefined) throw new Error(`no session cookies (HTTP ${res.status})`);
  return { cookie: pairs.join("; "), "x-csrf-token": csrf };
}

async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

const ACCOUNTS: IdentitySource = {
  name: "accounts",
  yaml: "auth:\n  enabled: true\n",
  sessions: true,
  async identities(url) {
    const auth = `${url}/api/v1/auth`;
    const email = (who: Who) => `${who}@example.com`;
    const initialized = await postJson(`${auth}/initialize`, { email: email("root"), password: PASSWORDS.root });
    expect(initialized.status).toBe(201);
    const adminSession = sessionHeaders(initialized);
    const login = async (who: Who) => {
      const res = await fetch(`${auth}/login/local`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ username: email(who), password: PASSWORDS[who] }).toString(),
      });
      expect(res.status).toBe(200);
      return sessionHeaders(res);
    };
    const keyOf = async (session: Record<string, string>): Promise<Identity> => {
      const me = (await (await fetch(`${auth}/me`, { headers: session })).json()) as { id: string };
      const created = await postJson(`${auth}/api-keys`, { name: "sdk" }, session);
      expect(created.status).toBe(201);
      return { userId: me.id, headers: { "x-api-key": ((await created.json()) as { key: string }).key } };
    };
    for (const who of ["alice", "bob"] as const) {
      const res = await postJson(
        `${auth}/users`,
        { email: email(who), password: PASSWORDS[who], system_role: "user" },
        adminSession,
      );
      expect(res.status).toBe(201);
    }
    const bobSession = await login("bob");
    const ids = {
      alice: await keyOf(await login("alice")),
      bob: await keyOf(bobSession),
      root: await keyOf(adminSession),
    };
    expect(new Set(Object.values(ids).map((i) => i.userId)).size).toBe(3);
    for (const { userId } of Object.values(ids)) expect(userId).toMatch(/^[0-9a-f-]{36}$/);
    return { ids, bobSession: { userId: ids.bob.userId, headers: bobSession } };
  },
};

const SOURCES: readonly IdentitySource[] = [CONFIGURED, ACCOUNTS];

const textOf = (m: Readonly<Record<string, unknown>> | undefined): string =>
  typeof m?.["content"] === "string"
    ? m["content"]
    : Array.isArray(m?.["content"])
      ? (m["content"] as { text?: string }[]).map((b) => b.text ?? "").join("")
      : "";

function isExtraction(r: RecordedRequest): boolean {
  const format = r.body["response_format"] as { json_schema?: { name?: string } } | undefined;
  return format?.json_schema?.name === "memory_update" || r.toolNames.includes("memory_update");
}

/** Memory extraction finds nothing; a SANDBOX_PROMPT turn lists the uploads and writes an output; else a reply. */
function script(request: RecordedRequest): ScriptStep {
  if (isExtraction(request)) return { text: JSON.stringify({ newFacts: [] }) };
  const last = request.messages.at(-1);
  if (last?.["role"] === "tool") return { text: "done" };
  if (textOf(last).includes(SAVE_SKILL_PROMPT)) {
    const args = { action: "create", name: ALICE_SKILL, content: ALICE_SKILL_MD };
    return { toolCalls: [{ name: "skill_manage", args, id: "call_save_skill" }] };
  }
  if (textOf(last).includes(READ_SKILL_PROMPT)) {
    const args = { description: "read alice's skill", path: ALICE_SKILL_FILE };
    return { toolCalls: [{ name: "read_file", args, id: "call_read_skill" }] };
  }
  if (textOf(last).includes(SANDBOX_PROMPT)) {
    const command = "ls /mnt/user-data/uploads; echo here > /mnt/user-data/outputs/where.txt";
    return { toolCalls: [{ name: "bash", args: { description: "where am I", command }, id: "call_where" }] };
  }
  return { text: "Noted." };
}

/** One caller: its SDK client and raw HTTP with its key. */
interface Actor {
  readonly userId: string;
  /** Its authentication headers (an API key, or a session cookie with the CSRF token). */
  readonly headers: Readonly<Record<string, string>>;
  readonly sdk: SdkClient;
  http(method: string, route: string, body?: unknown): Promise<{ status: number; body: unknown }>;
}

/** What alice made in `beforeAll`: her thread (with a finished run, an upload and an output), and more. */
interface AliceWorld {
  readonly threadId: string;
  readonly runId: string;
  readonly statelessRunId: string;
  readonly factId: string;
  readonly tag: string;
  /** Her own LangGraph assistant (metadata `{tag}`). */
  readonly assistantId: string;
  /** Her custom skill (created by skill_manage in her run). */
  readonly skillName: string;
  /** Her custom agent (POST /api/agents) and its LangGraph assistant. */
  readonly agentName: string;
  readonly agentAssistantId: string;
}

/**
 * A kind of resource. `reach` lists bob's attempts on the owner's resource:
 * each must answer `status` (404 unless said) exactly as the same attempt on
 * a missing one does; `routes` names the OpenAPI routes (`METHOD
 * /api/path/{param}`) they exercise. `listed` is what a caller's listing or
 * search shows: the owner's resource appears in the owner's, never in bob's,
 * and in the admin's when `adminSees`.
 */
interface Family {
  readonly name: string;
  /** Whose resource it is (default alice). */
  readonly owner?: Who;
  readonly routes: readonly string[];
  readonly reach: ReadonlyArray<{
    readonly what: string;
    readonly status?: number;
    /** The admin's attempt answers as bob's too (per user for everyone). */
    readonly admin?: true;
    readonly call: (as: Actor, world: AliceWorld) => Promise<{ status: number | undefined; text: string }>;
  }>;
  readonly listed?: (as: Actor, world: AliceWorld) => Promise<readonly string[]>;
  /** The id the owner's resource shows under in `listed`. */
  readonly idOf?: (world: AliceWorld) => string;
  readonly adminSees?: boolean;
}

/** An SDK call's HTTP status and error text (undefined status when it succeeded). */
async function sdkOutcome(promise: Promise<unknown>): Promise<{ status: number | undefined; text: string }> {
  try {
    await promise;
    return { status: undefined, text: "" };
  } catch (err) {
    return { status: (err as { status?: number }).status, text: String((err as Error).message) };
  }
}

const httpOutcome = async (p: Promise<{ status: number; body: unknown }>) => {
  const res = await p;
  return { status: res.status, text: JSON.stringify(res.body) };
};

const T = "/api/threads/{thread_id}";
const R = `${T}/runs/{run_id}`;

const FAMILIES: readonly Family[] = [
  {
    name: "threads",
    routes: [`GET ${T}`, `PATCH ${T}`, `DELETE ${T}`, `GET ${T}/token-usage`],
    reach: [
      { what: "get", call: (as, w) => sdkOutcome(as.sdk.threads.get(w.threadId)) },
      { what: "update", call: (as, w) => sdkOutcome(as.sdk.threads.update(w.threadId, { metadata: { x: 1 } })) },
      { what: "delete", call: (as, w) => sdkOutcome(as.sdk.threads.delete(w.threadId)) },
      { what: "token usage", call: (as, w) => httpOutcome(as.http("GET", `/threads/${w.threadId}/token-usage`)) },
    ],
    listed: async (as, w) =>
      (await as.sdk.threads.search({ metadata: { tag: w.tag }, limit: 100 })).map((t) => t.thread_id),
    idOf: (w) => w.threadId,
    adminSees: true,
  },
  {
    name: "state and history",
    routes: [
      `GET ${T}/state`,
      `POST ${T}/state`,
      `POST ${T}/state/checkpoint`,
      `GET ${T}/state/{checkpoint_id}`,
      `GET ${T}/history`,
      `POST ${T}/history`,
    ],
    reach: [
      { what: "get state", call: (as, w) => sdkOutcome(as.sdk.threads.getState(w.threadId)) },
      {
        what: "update state",
        call: (as, w) => sdkOutcome(as.sdk.threads.updateState(w.threadId, { values: { messages: [] } })),
      },
      { what: "history", call: (as, w) => sdkOutcome(as.sdk.threads.getHistory(w.threadId)) },
      { what: "history (GET)", call: (as, w) => httpOutcome(as.http("GET", `/threads/${w.threadId}/history`)) },
      {
        what: "state at a checkpoint",
        call: async (as, w) => {
          // Alice's head checkpoint on her thread (none on a missing one).
          const history = await (await actors()).alice.sdk.threads.getHistory(w.threadId, { limit: 1 }).catch(() => []);
          const id = (history[0] as { checkpoint?: { checkpoint_id?: string } } | undefined)?.checkpoint?.checkpoint_id;
          if (history.length > 0 && id === undefined) throw new Error("no head checkpoint");
          const get = await as.http("GET", `/threads/${w.threadId}/state/${id ?? "c0"}`);
          const post = await as.http("POST", `/threads/${w.threadId}/state/checkpoint`, {
            checkpoint: { checkpoint_id: id ?? "c0" },
          });
          expect(post).toEqual(get);
          return { status: get.status, text: JSON.stringify(get.body) };
        },
      },
    ],
  },
  {
    name: "runs",
    routes: [
      `POST ${T}/runs`,
      `GET ${T}/runs`,
      `POST ${T}/runs/stream`,
      `POST ${T}/runs/wait`,
      `GET ${R}`,
      `DELETE ${R}`,
      `POST ${R}/cancel`,
      `GET ${R}/join`,
      `GET ${R}/stream`,
      "GET /api/runs/{run_id}/stream",
    ],
    reach: [
      { what: "create", call: (as, w) => sdkOutcome(as.sdk.runs.create(w.threadId, ASSISTANT, { input: null })) },
      { what: "wait", call: (as, w) => sdkOutcome(as.sdk.runs.wait(w.threadId, ASSISTANT, { input: null })) },
      {
        what: "stream",
        call: (as, w) =>
          sdkOutcome(
            (async () => {
              for await (const _ of as.sdk.runs.stream(w.threadId, ASSISTANT, { input: null }));
            })(),
          ),
      },
      { what: "list", call: (as, w) => sdkOutcome(as.sdk.runs.list(w.threadId)) },
      { what: "get", call: (as, w) => sdkOutcome(as.sdk.runs.get(w.threadId, w.runId)) },
      { what: "cancel", call: (as, w) => sdkOutcome(as.sdk.runs.cancel(w.threadId, w.runId)) },
      { what: "join", call: (as, w) => sdkOutcome(as.sdk.runs.join(w.threadId, w.runId)) },
      { what: "delete", call: (as, w) => sdkOutcome(as.sdk.runs.delete(w.threadId, w.runId)) },
      {
        what: "join stream with Last-Event-ID",
        call: (as, w) =>
          sdkOutcome(
            (async () => {
              for await (const _ of as.sdk.runs.joinStream(w.threadId, w.runId, { lastEventId: "-1" }));
            })(),
          ),
      },
      {
        what: "stateless join stream",
        call: (as, w) => httpOutcome(as.http("GET", `/runs/${w.statelessRunId}/stream`)),
      },
    ],
  },
  {
    name: "uploads and artifacts",
    routes: [
      `POST ${T}/uploads`,
      `GET ${T}/uploads/limits`,
      `GET ${T}/uploads/list`,
      `DELETE ${T}/uploads/{filename}`,
      `GET ${T}/artifacts/{path}`,
      `GET ${T}/files`,
    ],
    reach: [
      { what: "list", call: (as, w) => httpOutcome(as.http("GET", `/threads/${w.threadId}/uploads/list`)) },
      { what: "limits", call: (as, w) => httpOutcome(as.http("GET", `/threads/${w.threadId}/uploads/limits`)) },
      { what: "files", call: (as, w) => httpOutcome(as.http("GET", `/threads/${w.threadId}/files`)) },
      {
        what: "get an upload",
        call: (as, w) =>
          httpOutcome(as.http("GET", `/threads/${w.threadId}/artifacts/mnt/user-data/uploads/alice-notes.txt`)),
      },
      {
        what: "get an output",
        call: (as, w) =>
          httpOutcome(as.http("GET", `/threads/${w.threadId}/artifacts/mnt/user-data/outputs/where.txt`)),
      },
      {
        what: "delete an upload",
        call: (as, w) => httpOutcome(as.http("DELETE", `/threads/${w.threadId}/uploads/alice-notes.txt`)),
      },
      {
        what: "upload",
        call: async (as, w) => {
          const res = await uploadAs(as, w.threadId, "bob.txt", "bob was here");
          return { status: res.status, text: JSON.stringify(res.body) };
        },
      },
    ],
  },
  {
    name: "store items",
    routes: [],
    reach: [
      // The store answers a missing item with 200 null.
      { what: "get", status: 200, call: (as) => httpOutcome(as.http("GET", "/store/items?namespace=notes&key=alice")) },
      {
        what: "delete",
        status: 200,
        call: async (as) => {
          await as.http("DELETE", "/store/items", { namespace: ["notes"], key: "alice" });
          // Deleting under one's own namespace is a no-op 204: her item is still there.
          const hers = await (await actors()).alice.http("GET", "/store/items?namespace=notes&key=alice");
          expect(hers.status).toBe(200);
          return httpOutcome(as.http("GET", "/store/items?namespace=notes&key=alice"));
        },
      },
    ],
    listed: async (as) =>
      (
        (await as.http("POST", "/store/items/search", { namespace_prefix: ["notes"], limit: 100 })).body as {
          items: { key: string }[];
        }
      ).items.map((i) => i.key),
    idOf: () => "alice",
  },
  {
    name: "memory",
    routes: [],
    reach: [
      {
        what: "update a fact",
        call: (as, w) => httpOutcome(as.http("PATCH", `/memory/facts/${w.factId}`, { content: "hijacked" })),
      },
      { what: "delete a fact", call: (as, w) => httpOutcome(as.http("DELETE", `/memory/facts/${w.factId}`)) },
    ],
    listed: async (as) =>
      ((await as.http("GET", "/memory")).body as { facts: { id: string }[] }).facts.map((f) => f.id),
    idOf: (w) => w.factId,
  },
  {
    name: "assistants",
    routes: [],
    reach: [
      { what: "get", call: (as, w) => sdkOutcome(as.sdk.assistants.get(w.assistantId)) },
      { what: "graph", call: (as, w) => sdkOutcome(as.sdk.assistants.getGraph(w.assistantId)) },
      { what: "schemas", call: (as, w) => sdkOutcome(as.sdk.assistants.getSchemas(w.assistantId)) },
      { what: "update", call: (as, w) => sdkOutcome(as.sdk.assistants.update(w.assistantId, { name: "hijacked" })) },
      { what: "versions", call: (as, w) => sdkOutcome(as.sdk.assistants.getVersions(w.assistantId)) },
      { what: "set latest", call: (as, w) => sdkOutcome(as.sdk.assistants.setLatest(w.assistantId, 1)) },
      { what: "delete", call: (as, w) => sdkOutcome(as.sdk.assistants.delete(w.assistantId)) },
      {
        what: "run it on his own thread",
        call: async (as, w) => {
          const mine = await as.sdk.threads.create();
          const outcome = await sdkOutcome(as.sdk.runs.wait(mine.thread_id, w.assistantId, { input: null }));
          expect(await as.sdk.runs.list(mine.thread_id)).toEqual([]);
          await as.sdk.threads.delete(mine.thread_id);
          return outcome;
        },
      },
    ],
    listed: async (as, w) =>
      (await as.sdk.assistants.search({ metadata: { tag: w.tag }, limit: 100 })).map((a) => a.assistant_id),
    idOf: (w) => w.assistantId,
    adminSees: true,
  },
  {
    // Per user for everyone: the admin's listing is the admin's own (DeerFlow). Changes are admin-only: bob gets 403.
    name: "custom skills",
    routes: [],
    reach: [
      { what: "get", call: (as, w) => httpOutcome(as.http("GET", `/skills/${w.skillName}`)) },
      { what: "files", call: (as, w) => httpOutcome(as.http("GET", `/skills/${w.skillName}/files`)) },
      { what: "read", call: (as, w) => httpOutcome(as.http("GET", `/skills/${w.skillName}/files/SKILL.md`)) },
      {
        what: "toggle",
        status: 403,
        call: (as, w) => httpOutcome(as.http("PUT", `/skills/${w.skillName}`, { enabled: false })),
      },
      {
        what: "edit",
        status: 403,
        call: (as, w) =>
          httpOutcome(as.http("PUT", `/skills/custom/${w.skillName}`, { content: "---\nname: x\n---\n" })),
      },
      { what: "delete", status: 403, call: (as, w) => httpOutcome(as.http("DELETE", `/skills/custom/${w.skillName}`)) },
    ],
    listed: async (as) => {
      const all = ((await as.http("GET", "/skills")).body as { skills: { name: string }[] }).skills;
      const custom = ((await as.http("GET", "/skills/custom")).body as { skills: { name: string }[] }).skills;
      return [...all, ...custom].map((s) => s.name);
    },
    idOf: (w) => w.skillName,
  },
  {
    // Per user for everyone (DeerFlow): the admin's attempts answer as bob's, the admin's listing is the admin's own.
    name: "custom agents",
    routes: [],
    reach: [
      { what: "get", admin: true, call: (as, w) => httpOutcome(as.http("GET", `/agents/${w.agentName}`)) },
      {
        what: "check (the name is free for him)",
        status: 200,
        admin: true,
        call: (as, w) => httpOutcome(as.http("GET", `/agents/check?name=${w.agentName}`)),
      },
      {
        what: "update",
        admin: true,
        call: (as, w) =>
          httpOutcome(as.http("PUT", `/agents/${w.agentName}`, { description: "hijacked", soul: "hijacked" })),
      },
      { what: "delete", admin: true, call: (as, w) => httpOutcome(as.http("DELETE", `/agents/${w.agentName}`)) },
      { what: "its assistant", call: (as, w) => sdkOutcome(as.sdk.assistants.get(w.agentAssistantId)) },
      {
        // Fails as an unknown agent before any model call: her SOUL.md never reaches his run.
        what: "run as it (context.agent_name)",
        status: 200,
        admin: true,
        call: async (as, w) => {
          const mine = await as.sdk.threads.create();
          const before = current?.server.openai.requests.length;
          const res = await as.http("POST", `/threads/${mine.thread_id}/runs/wait`, {
            assistant_id: ASSISTANT,
            input: { messages: [{ role: "user", content: "hi" }] },
            context: { agent_name: w.agentName },
          });
          expect(current?.server.openai.requests.length).toBe(before);
          expect(JSON.stringify(res.body)).toContain(
            `Custom agent '${w.agentName}' does not exist for the current user`,
          );
          await as.sdk.threads.delete(mine.thread_id);
          return { status: res.status, text: JSON.stringify(res.body) };
        },
      },
    ],
    listed: async (as) =>
      ((await as.http("GET", "/agents")).body as { agents: { name: string }[] }).agents.map((a) => a.name),
    idOf: (w) => w.agentName,
  },
];

/** Missing counterparts of alice's ids, for the answers bob must get alike. */
function missingWorld(w: AliceWorld): AliceWorld {
  return {
    ...w,
    threadId: "00000000-0000-4000-8000-000000000001",
    runId: "00000000-0000-4000-8000-000000000002",
    statelessRunId: "00000000-0000-4000-8000-000000000003",
    factId: "fact_missing",
    assistantId: "00000000-0000-4000-8000-000000000004",
    skillName: "no-such-skill",
    agentName: "no-such-agent",
    agentAssistantId: "00000000-0000-4000-8000-000000000005",
  };
}

let current: { server: ScriptedServer; actors: Record<Who, Actor> } | undefined;
async function actors(): Promise<Record<Who, Actor>> {
  if (current === undefined) throw new Error("no server");
  return current.actors;
}

async function uploadAs(
  as: Actor,
  threadId: string,
  filename: string,
  content: string,
): Promise<{ status: number; body: unknown }> {
  const form = new FormData();
  form.append("files", new Blob([content], { type: "text/plain" }), filename);
  const res = await fetch(`${current?.server.t.url}/api/threads/${threadId}/uploads`, {
    method: "POST",
    headers: as.headers,
    body: form,
  });
  return { status: res.status, body: await res.json() };
}

const COMBINATIONS = SOURCES.flatMap((source) =>
  SDKS.map(([line, makeClient]) => [source.name, line, source, makeClient] as const),
);

describe.each(COMBINATIONS)("two users and an admin (%s), %s", (_source, _line, source, makeClient) => {
  let server: ScriptedServer;
  let as: Record<Who, Actor>;
  /** Bob through his browser session (cookie + CSRF token), when the source has accounts. */
  let bobSession: Actor | undefined;
  let world: AliceWorld;
  let skillsRoot: string;

  beforeAll(async () => {
    // The deployment's skills: a public one, and a shared custom one (every other user's read-only legacy).
    skillsRoot = await fs.mkdtemp(path.join(os.tmpdir(), "two-users-skills-"));
    for (const [dir, name] of [
      ["public", "deep-research"],
      ["custom", "team-handbook"],
    ] as const) {
      await fs.mkdir(path.join(skillsRoot, dir, name), { recursive: true });
      await fs.writeFile(
        path.join(skillsRoot, dir, name, "SKILL.md"),
        `---\nname: ${name}\ndescription: The ${name} skill. Use it for ${name}.\n---\n`,
      );
    }
    server = await startScriptedServer(
      script,
      `${source.yaml}agents_api:
  enabled: true
memory:
  model_name: main
  debounce_seconds: 0
skills:
  path: ${skillsRoot}
  skill_manage:
    enabled: true
`,
    );
    const url = server.t.url;
    const identities = await source.identities(url);
    const actor = ({ userId, headers }: Identity): Actor => ({
      userId,
      headers,
      sdk: makeClient(`${url}/api`, headers),
      async http(method, route, body) {
        const res = await fetch(`${url}/api${route}`, {
          method,
          headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        const text = await res.text();
        return { status: res.status, body: text === "" ? undefined : (JSON.parse(text) as unknown) };
      },
    });
    as = { alice: actor(identities.ids.alice), bob: actor(identities.ids.bob), root: actor(identities.ids.root) };
    bobSession = identities.bobSession === undefined ? undefined : actor(identities.bobSession);
    current = { server, actors: as };

    // Alice's world: a tagged thread with an upload and a finished run that wrote an output.
    const tag = `tag-${Math.random().toString(36).slice(2)}`;
    const thread = await as.alice.sdk.threads.create({ metadata: { tag } });
    expect((await uploadAs(as.alice, thread.thread_id, "alice-notes.txt", "alice's notes")).status).toBe(200);
    await as.alice.sdk.runs.wait(thread.thread_id, ASSISTANT, {
      input: { messages: [{ role: "user", content: SANDBOX_PROMPT }] },
    });
    const [run] = await as.alice.sdk.runs.list(thread.thread_id);
    // A stateless run whose temporary thread is kept (the SDKs type on_completion differently: raw HTTP).
    const stateless = (
      await as.alice.http("POST", "/runs", {
        assistant_id: ASSISTANT,
        input: { messages: [{ role: "user", content: "hello" }] },
        on_completion: "keep",
      })
    ).body as { thread_id: string; run_id: string };
    await as.alice.sdk.runs.join(stateless.thread_id, stateless.run_id);
    const fact = await as.alice.http("POST", "/memory/facts", { content: "Keeps herons", category: "preference" });
    const factId = (fact.body as { facts: { id: string; content: string }[] }).facts.find(
      (f) => f.content === "Keeps herons",
    )?.id;
    expect(
      (await as.alice.http("PUT", "/store/items", { namespace: ["notes"], key: "alice", value: { tag } })).status,
    ).toBe(204);
    const assistant = await as.alice.sdk.assistants.create({ graphId: ASSISTANT, name: "alice's", metadata: { tag } });
    const skillThread = await as.alice.sdk.threads.create();
    await as.alice.sdk.runs.wait(skillThread.thread_id, ASSISTANT, {
      input: { messages: [{ role: "user", content: SAVE_SKILL_PROMPT }] },
    });
    // Her custom agent (with its LangGraph assistant) and her USER.md.
    const agent = await as.alice.http("POST", "/agents", {
      name: ALICE_AGENT,
      description: "Herons",
      soul: ALICE_SOUL,
    });
    expect(agent.status).toBe(201);
    const [agentAssistant] = await as.alice.sdk.assistants.search({ metadata: { custom_agent: ALICE_AGENT } });
    expect((await as.alice.http("PUT", "/user-profile", { content: ALICE_PROFILE })).status).toBe(200);
    world = {
      agentName: ALICE_AGENT,
      agentAssistantId: agentAssistant?.assistant_id ?? "",
      assistantId: assistant.assistant_id,
      threadId: thread.thread_id,
      runId: run?.run_id ?? "",
      statelessRunId: stateless.run_id,
      factId: factId ?? "",
      tag,
      skillName: ALICE_SKILL,
    };
  }, 120_000);

  afterAll(async () => {
    current = undefined;
    await server?.close();
    await fs.rm(skillsRoot, { recursive: true, force: true });
  });

  it("covers every route of the OpenAPI document that names a thread or a run", async () => {
    const doc = (await as.root.http("GET", "/../openapi.json")).body as {
      paths: Record<string, Record<string, unknown>>;
    };
    const named = Object.entries(doc.paths).flatMap(([route, ops]) =>
      /\{thread_id\}|\{run_id\}/.test(route)
        ? Object.keys(ops)
            .filter((m) => m !== "head")
            .map((m) => `${m.toUpperCase()} ${route}`)
        : [],
    );
    expect(named.length).toBeGreaterThan(20);
    const covered = new Set(FAMILIES.flatMap((f) => f.routes));
    expect(named.filter((r) => !covered.has(r))).toEqual([]);
  });

  /** `caller`'s attempt on alice's resource answers exactly as the same attempt on a missing one. */
  async function expectAsMissing(caller: Actor, attempt: Family["reach"][number]): Promise<void> {
    const theirs = await attempt.call(caller, world);
    const missing = await attempt.call(caller, missingWorld(world));
    expect(theirs.status).toBe(attempt.status ?? 404);
    expect(missing.status).toBe(attempt.status ?? 404);
    const generic = (text: string, w: AliceWorld) =>
      [w.threadId, w.runId, w.statelessRunId, w.factId, w.assistantId, w.skillName, w.agentName, w.agentAssistantId]
        .sort((a, b) => b.length - a.length)
        .reduce((t, id) => t.replaceAll(id, "<id>"), text);
    expect(generic(theirs.text, world)).toBe(generic(missing.text, missingWorld(world)));
  }

  describe.each(FAMILIES.map((f) => [f.name, f] as const))("%s", (_name, family) => {
    const cases = (attempts: Family["reach"]) => attempts.map((r) => [r.what, r.status ?? 404, r] as const);
    it.each(cases(family.reach))("bob: %s on alice's answers %i as on a missing one", (_what, _status, attempt) =>
      expectAsMissing(as.bob, attempt),
    );
    const perUser = family.reach.filter((r) => r.admin === true);
    if (perUser.length > 0) {
      it.each(cases(perUser))(
        "the admin: %s on alice's answers %i as on a missing one (per user for everyone)",
        (_what, _status, attempt) => expectAsMissing(as.root, attempt),
      );
    }
    if (source.sessions) {
      it.each(cases(family.reach))(
        "bob by his session cookie: %s on alice's answers %i as on a missing one",
        (_what, _status, attempt) => expectAsMissing(bobSession as Actor, attempt),
      );
    }

    if (family.listed !== undefined && family.idOf !== undefined) {
      const { listed, idOf } = family;
      const owner = family.owner ?? "alice";
      it("bob's listing shows none of it; its owner's does", async () => {
        expect(await listed(as.bob, world)).not.toContain(idOf(world));
        if (bobSession !== undefined) expect(await listed(bobSession, world)).not.toContain(idOf(world));
        expect(await listed(as[owner], world)).toContain(idOf(world));
      });
      if (owner !== "root") {
        it(family.adminSees === true ? "the admin sees it" : "the admin's listing is the admin's own", async () => {
          expect((await listed(as.root, world)).includes(idOf(world))).toBe(family.adminSees === true);
        });
      }
    }
  });

  it("alice's custom skill is in her runs' prompt and sandbox only; bob and the admin have their own skills", async () => {
    const systemOf = (prompt: string): string => {
      const request = server.openai.requests.find((r) => textOf(r.messages.at(-1)).includes(prompt));
      return textOf(request?.messages[0]);
    };
    const toolResults = async (actor: Actor, threadId: string): Promise<string[]> => {
      const state = await actor.sdk.threads.getState(threadId);
      const messages = (state.values as { messages: { type: string; content: unknown }[] }).messages;
      return messages.filter((m) => m.type === "tool").map((m) => textOf(m as Record<string, unknown>));
    };
    // Alice: her skill, editable, in her next run's prompt, readable in her sandbox.
    expect((await as.alice.http("GET", `/skills/${ALICE_SKILL}`)).body).toMatchObject({
      category: "custom",
      editable: true,
    });
    const hers = await as.alice.sdk.threads.create();
    await as.alice.sdk.runs.wait(hers.thread_id, ASSISTANT, {
      input: { messages: [{ role: "user", content: `${READ_SKILL_PROMPT} alice` }] },
    });
    expect(systemOf(`${READ_SKILL_PROMPT} alice`)).toContain(`<location>${ALICE_SKILL_FILE}</location>`);
    expect(await toolResults(as.alice, hers.thread_id)).toEqual([expect.stringContaining("# Herons")]);

    // Bob: not in his prompt, not in his sandbox's /mnt/skills; the shared folder is his read-only legacy.
    const his = await as.bob.sdk.threads.create();
    await as.bob.sdk.runs.wait(his.thread_id, ASSISTANT, {
      input: { messages: [{ role: "user", content: `${READ_SKILL_PROMPT} bob` }] },
    });
    const bobPrompt = systemOf(`${READ_SKILL_PROMPT} bob`);
    expect(bobPrompt).toContain("deep-research");
    expect(bobPrompt).toContain("/mnt/skills/legacy/team-handbook/SKILL.md");
    expect(bobPrompt).not.toContain(ALICE_SKILL);
    const [bobRead] = await toolResults(as.bob, his.thread_id);
    expect(bobRead).toMatch(/^Error: /);
    expect(bobRead).not.toContain("Herons");
    expect((await as.bob.http("GET", "/skills/team-handbook")).body).toMatchObject({
      category: "legacy",
      editable: false,
    });
    // Alice has her own custom skill, so the legacy folder is gone from hers (DeerFlow).
    expect((await as.alice.http("GET", "/skills/team-handbook")).status).toBe(404);

    // The admin: another user's custom skill is 404 on the admin routes too (skills are per user for everyone).
    const missing = { detail: `Custom skill '${ALICE_SKILL}' not found` };
    expect(await as.root.http("GET", `/skills/custom/${ALICE_SKILL}`)).toEqual({ status: 404, body: missing });
    expect(await as.root.http("DELETE", `/skills/custom/${ALICE_SKILL}`)).toEqual({ status: 404, body: missing });
    expect((await as.root.http("GET", `/skills/custom/${ALICE_SKILL}/history`)).status).toBe(404);
    expect((await as.root.http("PUT", `/skills/${ALICE_SKILL}`, { enabled: false })).status).toBe(404);
    // Still hers, enabled, on disk in her own folder.
    expect((await as.alice.http("GET", `/skills/${ALICE_SKILL}`)).body).toMatchObject({ enabled: true });
    expect(
      await fs.readFile(
        path.join(server.dir, "data", "users", as.alice.userId, "skills", "custom", ALICE_SKILL, "SKILL.md"),
        "utf8",
      ),
    ).toBe(ALICE_SKILL_MD);
    await expect(fs.stat(path.join(skillsRoot, "custom", ALICE_SKILL))).rejects.toMatchObject({ code: "ENOENT" });
    await as.alice.sdk.threads.delete(hers.thread_id);
    await as.bob.sdk.threads.delete(his.thread_id);
  });

  it("alice's resources are intact after bob's attempts", async () => {
    expect((await as.alice.sdk.threads.get(world.threadId)).metadata).toMatchObject({
      owner: as.alice.userId,
      tag: world.tag,
    });
    expect((await as.alice.sdk.runs.list(world.threadId)).map((r) => [r.run_id, r.status])).toEqual([
      [world.runId, "success"],
    ]);
    const uploads = (await as.alice.http("GET", `/threads/${world.threadId}/uploads/list`)).body as {
      files: { filename: string }[];
    };
    expect(uploads.files.map((f) => f.filename)).toEqual(["alice-notes.txt"]);
    const facts = ((await as.alice.http("GET", "/memory")).body as { facts: { id: string; content: string }[] }).facts;
    expect(facts.find((f) => f.id === world.factId)?.content).toBe("Keeps herons");
    expect(await as.alice.sdk.assistants.get(world.assistantId)).toMatchObject({ name: "alice's", version: 1 });
    expect((await as.alice.http("GET", `/agents/${world.agentName}`)).body).toMatchObject({
      description: "Herons",
      soul: ALICE_SOUL,
    });
    // The control for bob's run: hers as the agent does get its SOUL.md.
    const before = server.openai.requests.length;
    const thread = await as.alice.sdk.threads.create();
    await as.alice.sdk.runs.wait(thread.thread_id, ASSISTANT, {
      input: { messages: [{ role: "user", content: "hi" }] },
      context: { agent_name: world.agentName },
    });
    const system = textOf(server.openai.requests.slice(before).find((r) => !isExtraction(r))?.messages[0]);
    expect(system).toContain(`<soul>\n${ALICE_SOUL}\n</soul>`);
    await as.alice.sdk.threads.delete(thread.thread_id);
  });

  it("the admin sees alice's agent's assistant, but a run of it is no run of her agent (agents are per user)", async () => {
    expect(await as.root.sdk.assistants.get(world.agentAssistantId)).toMatchObject({
      metadata: { owner: as.alice.userId, custom_agent: world.agentName },
    });
    const before = server.openai.requests.length;
    const thread = await as.root.sdk.threads.create();
    const res = await as.root.http("POST", `/threads/${thread.thread_id}/runs/wait`, {
      assistant_id: world.agentAssistantId,
      input: { messages: [{ role: "user", content: "hi" }] },
    });
    // The run resolves the agent for the admin's own user: an unknown agent, before any model call.
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).toContain(`Custom agent '${world.agentName}' does not exist for the current user`);
    expect(server.openai.requests.length).toBe(before);
    await as.root.sdk.threads.delete(thread.thread_id);
  });

  it("/api/user-profile is the caller's own: bob's and the admin's are theirs, a write of bob's changes only his", async () => {
    expect(await as.bob.http("GET", "/user-profile")).toEqual({ status: 200, body: { content: null } });
    expect(await as.root.http("GET", "/user-profile")).toEqual({ status: 200, body: { content: null } });
    expect(await as.bob.http("PUT", "/user-profile", { content: "Bob's" })).toEqual({
      status: 200,
      body: { content: "Bob's" },
    });
    expect((await as.bob.http("GET", "/user-profile")).body).toEqual({ content: "Bob's" });
    expect((await as.alice.http("GET", "/user-profile")).body).toEqual({ content: ALICE_PROFILE });
    if (bobSession !== undefined)
      expect((await bobSession.http("GET", "/user-profile")).body).toEqual({ content: "Bob's" });
    expect((await as.bob.http("PUT", "/user-profile", { content: "" })).body).toEqual({ content: null });
  });

  it("bob's searches and counts never find alice's threads, even naming her as owner", async () => {
    const mine = await as.bob.sdk.threads.create({ metadata: { tag: world.tag } });
    const search = async (metadata: Record<string, unknown>) =>
      (await as.bob.sdk.threads.search({ metadata, limit: 100 })).map((t) => t.thread_id);
    expect(await search({ tag: world.tag })).toEqual([mine.thread_id]);
    expect(await search({ tag: world.tag, owner: as.alice.userId })).toEqual([]);
    expect(await as.bob.sdk.threads.count({ metadata: { tag: world.tag } })).toBe(1);
    expect(await as.bob.sdk.threads.count({ metadata: { owner: as.alice.userId } })).toBe(0);
    expect(await as.root.sdk.threads.count({ metadata: { tag: world.tag } })).toBe(2);
    expect(await as.alice.sdk.threads.count({ metadata: { tag: world.tag } })).toBe(1);
    await as.bob.sdk.threads.delete(mine.thread_id);
  });

  it("bob cannot take alice's thread id: create answers 409 without her thread, a run with if_not_exists=create 404", async () => {
    const res = await as.bob.http("POST", "/threads", { thread_id: world.threadId, if_exists: "do_nothing" });
    expect(res.status).toBe(409);
    expect(JSON.stringify(res.body)).not.toContain(world.tag);
    expect(
      await statusOf(as.bob.sdk.runs.create(world.threadId, ASSISTANT, { input: null, ifNotExists: "create" })),
    ).toBe(404);
    expect(await statusOf(as.bob.sdk.threads.create({ metadata: { owner: as.alice.userId } }))).toBe(403);
  });

  it("the admin reaches alice's thread, state and runs", async () => {
    expect((await as.root.sdk.threads.get(world.threadId)).metadata).toMatchObject({ owner: as.alice.userId });
    expect((await as.root.sdk.runs.get(world.threadId, world.runId)).status).toBe("success");
    expect(await statusOf(as.root.sdk.threads.getState(world.threadId))).toBeUndefined();
    expect((await as.root.sdk.threads.search({ metadata: { tag: world.tag } })).map((t) => t.thread_id)).toContain(
      world.threadId,
    );
  });

  it("a run's sandbox folder, uploads and memory follow the authenticated user, whatever the body says", async () => {
    const dataDir = path.join(server.dir, "data", "users");
    const thread = await as.bob.sdk.threads.create();
    expect((await uploadAs(as.bob, thread.thread_id, "bob-notes.txt", "bob's notes")).status).toBe(200);
    // Claims on another user or thread in the body: refused where they could name a user, ignored elsewhere.
    expect(
      await statusOf(
        as.bob.sdk.runs.wait(thread.thread_id, ASSISTANT, {
          input: null,
          config: { configurable: { user_id: as.alice.userId } },
        }),
      ),
    ).toBe(403);
    expect(
      await statusOf(
        as.bob.sdk.runs.wait(thread.thread_id, ASSISTANT, { input: null, context: { user_id: as.alice.userId } }),
      ),
    ).toBe(403);
    const before = server.openai.requests.length;
    await as.bob.sdk.runs.wait(thread.thread_id, ASSISTANT, {
      input: { messages: [{ role: "user", content: SANDBOX_PROMPT }] },
      metadata: { user_id: as.alice.userId, owner: as.alice.userId },
      config: { configurable: { thread_id: world.threadId } },
    });
    const requests = server.openai.requests.slice(before).filter((r) => !isExtraction(r));
    const seen = requests.map((r) => r.messages.map(textOf).join("\n")).join("\n");
    // The sandbox listed bob's upload, not alice's; no memory of hers reached his prompts.
    expect(seen).toContain("bob-notes.txt");
    expect(seen).not.toContain("alice-notes.txt");
    expect(seen).not.toContain("Keeps herons");
    // The output landed in bob's folder for his thread; alice's folder has only her own thread.
    await fs.access(
      path.join(dataDir, as.bob.userId, "threads", thread.thread_id, "user-data", "outputs", "where.txt"),
    );
    expect(await fs.readdir(path.join(dataDir, as.alice.userId, "threads"))).not.toContain(thread.thread_id);
    // His thread is his, whatever the run metadata said.
    expect((await as.bob.sdk.threads.get(thread.thread_id)).metadata).toMatchObject({ owner: as.bob.userId });
    // Alice's own runs do see her memory (the control: memory is injected at all).
    const mine = server.openai.requests.length;
    await as.alice.sdk.runs.wait(null, ASSISTANT, { input: { messages: [{ role: "user", content: "hi" }] } });
    const hers = server.openai.requests.slice(mine).filter((r) => !isExtraction(r));
    expect(hers.map((r) => r.messages.map(textOf).join("\n")).join("\n")).toContain("Keeps herons");
  });
});
