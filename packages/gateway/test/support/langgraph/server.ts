/**
 * A real gateway with the LangGraph routes on a RunManager (memory store,
 * memory bridge, local coordinator, MemorySaver), listening on an ephemeral port.
 */
import type { AddressInfo } from "node:net";
import {
  type AssistantStore,
  LocalRunCoordinator,
  MemoryRunStore,
  MemoryStreamBridge,
  RunManager,
  type StreamBridge,
  type StreamItem,
  type SubscribeOptions,
} from "@deerflow/runtime";
import { MemorySaver } from "@langchain/langgraph-checkpoint";
import { Client as Client115 } from "@langchain/langgraph-sdk";
import type { FastifyInstance } from "fastify";
import { Client as Client2 } from "sdk2";
import { AssistantRegistry, createGateway, langgraphRoutes, type GatewayOptions } from "../../../src/index.js";
import { Gates, buildAgentGraph, buildSlowGraph } from "./graphs.js";

export const AGENT_ID = "6f0c2d1e-5b8a-4c3d-9e7f-000000000001";
export const SLOW_ID = "6f0c2d1e-5b8a-4c3d-9e7f-000000000002";

/** A memory bridge that counts live subscriptions per run (to prove none outlives its client). */
class CountingBridge implements StreamBridge {
  readonly supportsCrossProcess = false;
  readonly #inner: MemoryStreamBridge;
  readonly #active = new Map<string, number>();

  constructor(inner: MemoryStreamBridge) {
    this.#inner = inner;
  }

  /** Subscriptions of `runId` currently open. */
  active(runId: string): number {
    return this.#active.get(runId) ?? 0;
  }

  publish(runId: string, event: string, data: unknown): Promise<string> {
    return this.#inner.publish(runId, event, data);
  }
  publishEnd(runId: string): Promise<void> {
    return this.#inner.publishEnd(runId);
  }
  subscribe(runId: string, options?: SubscribeOptions): AsyncIterable<StreamItem> {
    const inner = this.#inner.subscribe(runId, options);
    const active = this.#active;
    return (async function* () {
      active.set(runId, (active.get(runId) ?? 0) + 1);
      try {
        yield* inner;
      } finally {
        active.set(runId, (active.get(runId) ?? 1) - 1);
      }
    })();
  }
  exists(runId: string): Promise<boolean> {
    return this.#inner.exists(runId);
  }
  cleanup(runId: string, options?: { delayMs?: number }): Promise<void> {
    return this.#inner.cleanup(runId, options);
  }
  close(): Promise<void> {
    return this.#inner.close();
  }
}

export interface TestServer {
  readonly app: FastifyInstance;
  readonly manager: RunManager;
  readonly bridge: CountingBridge;
  readonly checkpointer: MemorySaver;
  readonly assistants: AssistantRegistry;
  readonly gates: Gates;
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** The SDK's `apiUrl`: `<origin>/api`. */
  readonly apiUrl: string;
  close(): Promise<void>;
}

export interface TestServerOptions {
  readonly heartbeatMs?: number;
  readonly gateway?: Partial<GatewayOptions>;
  /** Events kept per run by the memory bridge. */
  readonly maxEventsPerRun?: number;
  /** Listen on an ephemeral port (default true); false for `app.inject` only. */
  readonly listen?: boolean;
  /** Users' own assistants (none by default: system assistants only). */
  readonly assistantStore?: AssistantStore;
}

export async function startServer(options: TestServerOptions = {}): Promise<TestServer> {
  const checkpointer = new MemorySaver();
  const gates = new Gates();
  const assistants = new AssistantRegistry([
    {
      assistantId: AGENT_ID,
      graphId: "agent",
      name: "Agent",
      description: "Chats, calls a weather tool, asks for approval.",
      metadata: { created_by: "system", kind: "chat" },
      config: { configurable: { model: "scripted" }, tags: ["test"] },
      graph: ({ checkpointer: saver }) => buildAgentGraph(saver),
      stateGraph: (saver) => buildAgentGraph(saver),
    },
    {
      assistantId: SLOW_ID,
      graphId: "slow",
      name: "Slow worker",
      metadata: { created_by: "system", kind: "worker" },
      graph: ({ checkpointer: saver }) => buildSlowGraph(gates, saver),
      stateGraph: (saver) => buildSlowGraph(gates, saver),
    },
  ]);
  const bridge = new CountingBridge(
    new MemoryStreamBridge(options.maxEventsPerRun === undefined ? {} : { maxEventsPerRun: options.maxEventsPerRun }),
  );
  const manager = new RunManager({
    graphs: assistants.graphs,
    checkpointer,
    store: new MemoryRunStore(),
    bridge,
    coordinator: new LocalRunCoordinator(),
    maxStartPollMs: 50,
  });
  const app = await createGateway({
    routes: [
      langgraphRoutes({
        manager,
        checkpointer,
        assistants,
        heartbeatMs: options.heartbeatMs ?? 15_000,
        ...(options.assistantStore === undefined ? {} : { assistantStore: options.assistantStore }),
      }),
    ],
    ...options.gateway,
  });
  let origin = "http://127.0.0.1";
  if (options.listen ?? true) {
    await app.listen({ host: "127.0.0.1", port: 0 });
    origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  } else await app.ready();
  return {
    app,
    manager,
    bridge,
    checkpointer,
    assistants,
    gates,
    origin,
    apiUrl: `${origin}/api`,
    async close() {
      await app.close();
      await manager.shutdown({ drain: false, timeoutMs: 2_000 });
    },
  };
}

/** The 1.x SDK's client type; the 2.0.0 client has the same legacy API. */
export type SdkClient = Client115;

/** Both SDK lines, for `describe.each`. */
export const SDKS: ReadonlyArray<readonly [string, (apiUrl: string) => SdkClient]> = [
  ["@langchain/langgraph-sdk 1.15", (apiUrl) => new Client115({ apiUrl, apiKey: null })],
  ["@langchain/langgraph-sdk 2.0.0", (apiUrl) => new Client2({ apiUrl, apiKey: null }) as unknown as SdkClient],
];

/** One event as the SDK yields it. */
export interface SdkEvent {
  id?: string | undefined;
  event: string;
  data: unknown;
}

/** Collects an SDK stream. */
export async function collect(stream: AsyncIterable<unknown>): Promise<SdkEvent[]> {
  const out: SdkEvent[] = [];
  for await (const part of stream) out.push(part as SdkEvent);
  return out;
}

/** Polls `check` until it returns a value other than undefined (no wall-clock assertions: only a generous bound). */
export async function eventually<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
