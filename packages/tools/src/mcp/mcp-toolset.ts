/**
 * `McpToolset`: the MCP servers of a config source as LangChain tools, loaded
 * lazily and reloaded when the source's signature changes (DeerFlow's
 * `get_cached_mcp_tools`). Each server is discovered on its own, concurrently
 * and within its init timeout: a failing or hanging server is skipped with a
 * logged reason and a `failed` status, the others load. A reload builds a new
 * generation of tools; the old one closes its sessions only after its calls in
 * flight have ended, so no call is dropped.
 */
import fs from "node:fs/promises";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { loadMcpTools } from "@langchain/mcp-adapters";
import type { DynamicStructuredTool, StructuredToolInterface } from "@langchain/core/tools";
import type { JSONSchema } from "@langchain/core/utils/json_schema";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { RunnableConfig } from "@langchain/core/runnables";
import { silentLogger, type Logger } from "@deerflow/kernel";
import { mcpErrorText, toToolContent } from "./call-result.js";
import type { McpConfigSource } from "./config-source.js";
import { connectMcpServer } from "./connect.js";
import { McpError } from "./errors.js";
import { McpTool, type McpToolAnswer } from "./mcp-tool.js";
import { OAuthTokenProvider } from "./oauth-token.js";
import { MCP_TOOL_NAME_PATTERN, mcpToolName, type McpServerSpec } from "./server-spec.js";
import type { McpServerStatus, McpToolSummary } from "./server-status.js";
import { McpSessionPool } from "./session-pool.js";

/** Options of {@link McpToolset}. */
export interface McpToolsetOptions {
  readonly source: McpConfigSource;
  readonly logger?: Logger;
  /** Bound of spawn + initialize + tools/list per server, unless its `session_init_timeout` says otherwise. Default 60 s. */
  readonly connectTimeoutMs?: number;
  /** Bound of one tool call, unless the server's `tool_call_timeout` says otherwise. Default 120 s. */
  readonly callTimeoutMs?: number;
  /** Pooled sessions kept (LRU beyond). Default 256 (DeerFlow's `MAX_SESSIONS`). */
  readonly maxSessions?: number;
  /** A pooled session unused this long is closed. Default 10 minutes. */
  readonly sessionIdleMs?: number;
  /**
   * How long a (re)load waits for slow servers before answering with the tools it has; a server
   * still starting shows as `pending` and its tools join when it answers. Default 10 s.
   */
  readonly firstLoadWaitMs?: number;
  /**
   * The folder a thread's stdio sessions run in, as DeerFlow pins them inside the thread's user data:
   * their working directory and `TMPDIR`, unless the server entry sets `cwd` / `env.TMPDIR` itself.
   * Created when missing. `undefined` (or no thread): the server process's own.
   */
  readonly stdioWorkDir?: (scope: McpSessionScope) => string | undefined;
}

/** Who a pooled stdio session belongs to (from the call's `configurable`). */
export interface McpSessionScope {
  readonly threadId: string;
  /** `configurable.user_id` (set by the DeerFlow gateway from the authenticated caller). */
  readonly userId: string | undefined;
}

/** The metadata every MCP tool carries (`tool.metadata.mcp`); deferral keys off it. */
export interface McpToolMetadata {
  readonly server: string;
  /** The tool's name on the server. */
  readonly tool: string;
}

/**
 * The MCP tag of a tool.
 *
 * @param tool - any tool
 * @returns its server and original name, or `undefined` for a tool that is not from MCP
 */
export function mcpMetadataOf(tool: StructuredToolInterface): McpToolMetadata | undefined {
  const mcp = (tool as { metadata?: Record<string, unknown> }).metadata?.["mcp"];
  return mcp !== null && typeof mcp === "object" ? (mcp as McpToolMetadata) : undefined;
}

interface ServerState {
  readonly spec: McpServerSpec;
  status: McpServerStatus;
}

/** One loaded configuration: its tools, sessions and calls in flight. */
class Generation {
  /** Replaced (never mutated) when a server joins, so a caller's snapshot stays consistent. */
  tools: readonly StructuredToolInterface[] = [];
  readonly servers = new Map<string, ServerState>();
  readonly pool: McpSessionPool<McpSessionScope>;
  readonly oauth = new Map<string, OAuthTokenProvider>();
  /** Aborted on close: discoveries and connects still under way stop and close their transports. */
  readonly lifetime = new AbortController();
  #inflight = 0;
  #retired = false;
  /** One idle timer per call-timeout duration, see {@link keepTimerList}. */
  readonly #timerListKeepers = new Map<number, NodeJS.Timeout>();
  /** The last call's thread and user and their pool scope key: a thread's next call reuses the key. */
  #lastThread: unknown;
  #lastUser: unknown;
  #lastScopeKey = "\u0000";
  #closed: Promise<void> | undefined;

  constructor(
    readonly signature: string | undefined,
    pool: (gen: Generation) => McpSessionPool<McpSessionScope>,
  ) {
    this.pool = pool(this);
  }

  /**
   * Adds a server's tools, sorted by name so the order the model sees does not depend on which server answered first.
   *
   * @param tools - the server's tools
   * @param logger - where duplicate names are reported
   */
  add(tools: readonly StructuredToolInterface[], logger: Logger): void {
    const seen = new Set(this.tools.map((t) => t.name));
    const fresh: StructuredToolInterface[] = [];
    for (const tool of tools) {
      if (seen.has(tool.name)) {
        logger.warn({ tool: tool.name }, `Skipping duplicate MCP tool name '${tool.name}'`);
        continue;
      }
      seen.add(tool.name);
      fresh.push(tool);
    }
    if (fresh.length > 0)
      this.tools = [...this.tools, ...fresh].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /**
   * The pool scope of a stdio call: its user and thread.
   *
   * @param config - the call's run config
   * @returns `user\0thread` (empty parts when missing)
   */
  scopeKey(config: RunnableConfig): string {
    const thread = config.configurable?.["thread_id"];
    const user = config.configurable?.["user_id"];
    if (thread !== this.#lastThread || user !== this.#lastUser) {
      this.#lastThread = thread;
      this.#lastUser = user;
      this.#lastScopeKey = `${typeof user === "string" ? user : ""}\u0000${typeof thread === "string" ? thread : ""}`;
    }
    return this.#lastScopeKey;
  }

  /**
   * Keeps Node's timer list of a call-timeout duration alive. Node keeps one list per duration and
   * drops it when its last timer is cleared, so each call's request timer (the SDK's, with our
   * duration) built and tore down a list, its priority-queue entry and map slot: ≈4–6 µs a call on
   * this path, measured, where the SDK's default 60 s shares a list with other timers. An unref'd
   * interval of the same duration (one per duration, firing a no-op) keeps the list for the
   * generation's lifetime.
   *
   * @param ms - the call timeout
   */
  keepTimerList(ms: number): void {
    if (ms > 2_147_483_647 || this.#timerListKeepers.has(ms) || this.lifetime.signal.aborted) return;
    const keeper = setInterval(noop, ms);
    keeper.unref();
    this.#timerListKeepers.set(ms, keeper);
  }

  /** A call starts (paired with exactly one {@link leave}). */
  enter(): void {
    this.#inflight += 1;
  }

  /** A call ended: a retired generation closes after its last one. */
  leave(): void {
    this.#inflight -= 1;
    if (this.#retired && this.#inflight === 0) void this.close();
  }

  retire(): Promise<void> {
    this.#retired = true;
    return this.#inflight === 0 ? this.close() : Promise.resolve();
  }

  close(): Promise<void> {
    this.lifetime.abort();
    for (const keeper of this.#timerListKeepers.values()) clearInterval(keeper);
    this.#timerListKeepers.clear();
    this.#closed ??= this.pool.close();
    return this.#closed;
  }
}

const noop = (): void => undefined;

const scopeOf = (config: RunnableConfig | undefined): McpSessionScope => {
  const thread = config?.configurable?.["thread_id"];
  const user = config?.configurable?.["user_id"];
  return { threadId: typeof thread === "string" ? thread : "", userId: typeof user === "string" ? user : undefined };
};

/** The toolset. */
export class McpToolset {
  readonly #options: McpToolsetOptions;
  readonly #logger: Logger;
  #current: Generation | undefined;
  #loading: Promise<Generation> | undefined;
  #stale = false;
  #closed = false;
  #failedSignature: string | undefined;
  readonly #retiring = new Set<Promise<void>>();

  /** @param options - source, logger, timeouts, pool bounds */
  constructor(options: McpToolsetOptions) {
    this.#options = options;
    this.#logger = options.logger ?? silentLogger;
  }

  /**
   * The current tools, loading or reloading first when the source changed.
   *
   * @returns the tools of every server that loaded
   * @throws McpError `MCP_CLOSED` after {@link close}; whatever the source throws on the first load
   */
  async tools(): Promise<readonly StructuredToolInterface[]> {
    return (await this.#generation()).tools;
  }

  /**
   * The tools loaded last, without checking the source for a change (no file read): for running a
   * call the model was just offered, which {@link tools} checked.
   *
   * @returns the current generation's tools, or `undefined` before the first load and after {@link close}
   */
  loadedTools(): readonly StructuredToolInterface[] | undefined {
    return this.#closed ? undefined : this.#current?.tools;
  }

  /**
   * Per-server status, after loading if needed.
   *
   * @returns one entry per configured server, sorted by name
   */
  async status(): Promise<McpServerStatus[]> {
    const gen = await this.#generation();
    return [...gen.servers.values()].map((s) => s.status).sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Forgets the loaded tools: the next use reloads (DeerFlow's `POST /api/mcp/cache/reset`). */
  reset(): void {
    this.#stale = true;
  }

  /**
   * Closes every session (stdio children exit) and refuses further use.
   *
   * @returns when everything has closed
   */
  async close(): Promise<void> {
    this.#closed = true;
    const loading = this.#loading;
    if (loading !== undefined) await loading.catch(() => undefined);
    await Promise.all([this.#current?.close(), ...this.#retiring]);
  }

  async #generation(): Promise<Generation> {
    if (this.#closed) throw new McpError("MCP_CLOSED", "the MCP toolset is closed");
    const current = this.#current;
    const signature = await this.#options.source.signature();
    const fresh =
      current !== undefined &&
      !this.#stale &&
      (signature === undefined || signature === current.signature || signature === this.#failedSignature);
    if (fresh) return current;
    this.#loading ??= this.#load(signature)
      .catch((err: unknown) => {
        // A config that cannot be read keeps the last good tools until it changes again.
        if (current === undefined) throw err;
        this.#failedSignature = signature;
        this.#logger.warn(
          { err },
          `MCP configuration could not be loaded; keeping the previous tools: ${(err as Error).message}`,
        );
        return current;
      })
      .finally(() => {
        this.#loading = undefined;
      });
    return this.#loading;
  }

  async #load(signature: string | undefined): Promise<Generation> {
    this.#stale = false;
    const servers = await this.#options.source.load();
    const gen = new Generation(
      signature,
      (g) =>
        new McpSessionPool({
          open: (server, scope) => this.#connect(g, server, scope),
          logger: this.#logger,
          ...(this.#options.maxSessions === undefined ? {} : { maxSessions: this.#options.maxSessions }),
          ...(this.#options.sessionIdleMs === undefined ? {} : { idleMs: this.#options.sessionIdleMs }),
        }),
    );
    for (const [name, spec] of Object.entries(servers)) {
      gen.servers.set(name, {
        spec,
        status: {
          name,
          enabled: spec.enabled !== false,
          type: spec.type ?? "stdio",
          state: spec.enabled === false ? "disabled" : "pending",
          toolCount: 0,
          tools: [],
        },
      });
      if (spec.oauth !== undefined && spec.oauth.enabled !== false && spec.type !== "stdio")
        gen.oauth.set(name, new OAuthTokenProvider(spec.oauth));
    }
    const enabled = [...gen.servers.entries()].filter(([, s]) => s.spec.enabled !== false);
    let ready = false;
    const discoveries = enabled.map(([name, s]) =>
      this.#discover(gen, name, s).then((tools) => {
        gen.add(tools, this.#logger);
        if (ready && tools.length > 0)
          this.#logger.info(
            { server: name, tools: tools.length },
            `MCP server '${name}' joined with ${tools.length} tool(s)`,
          );
      }),
    );
    // A slow server does not hold the first model call for its whole init timeout: its tools join when it answers.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(discoveries),
      new Promise((resolve) => {
        timer = setTimeout(resolve, this.#options.firstLoadWaitMs ?? 10_000);
      }),
    ]);
    clearTimeout(timer);
    ready = true;
    if (this.#closed) {
      await gen.close();
      throw new McpError("MCP_CLOSED", "the MCP toolset is closed");
    }
    const previous = this.#current;
    this.#current = gen;
    if (previous !== undefined) {
      const retiring = previous.retire().finally(() => this.#retiring.delete(retiring));
      this.#retiring.add(retiring);
    }
    this.#logger.info(
      { servers: enabled.length, tools: gen.tools.length },
      `MCP tools loaded: ${gen.tools.length} from ${enabled.length} server(s)`,
    );
    return gen;
  }

  #initTimeoutMs(spec: McpServerSpec): number {
    const s = spec.sessionInitTimeout;
    if (s === Infinity) return 2_147_483_647;
    return s === undefined ? (this.#options.connectTimeoutMs ?? 60_000) : s * 1000;
  }

  async #connect(gen: Generation, server: string, scope?: McpSessionScope): Promise<Client> {
    const state = gen.servers.get(server);
    if (state === undefined) throw new McpError("MCP_CONFIG_INVALID", `unknown MCP server '${server}'`);
    let spec = state.spec;
    const dir =
      (spec.type ?? "stdio") === "stdio" && scope !== undefined && scope.threadId !== ""
        ? this.#options.stdioWorkDir?.(scope)
        : undefined;
    if (dir !== undefined) {
      await fs.mkdir(dir, { recursive: true });
      spec = { ...spec, cwd: spec.cwd ?? dir, env: { TMPDIR: dir, ...spec.env } };
    }
    return connectMcpServer(server, spec, {
      timeoutMs: this.#initTimeoutMs(state.spec),
      oauth: gen.oauth.get(server),
      signal: gen.lifetime.signal,
    });
  }

  async #discover(gen: Generation, name: string, state: ServerState): Promise<StructuredToolInterface[]> {
    const spec = state.spec;
    const timeoutMs = this.#initTimeoutMs(spec);
    let timer: NodeJS.Timeout | undefined;
    let client: Client | undefined;
    // A closing toolset also closes a discovery session stuck after connect (e.g. in tools/list).
    const onClose = (): void => void client?.close().catch(() => undefined);
    gen.lifetime.signal.addEventListener("abort", onClose, { once: true });
    const work = (async () => {
      client = await this.#connect(gen, name);
      return loadMcpTools(name, client, { throwOnLoadError: false });
    })();
    try {
      const discovered = await Promise.race([
        work,
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new McpError("MCP_TIMEOUT", `tool discovery timed out (${timeoutMs / 1000}s)`)),
            timeoutMs,
          );
        }),
      ]);
      const tools = this.#wrap(gen, name, spec, discovered);
      state.status = {
        ...state.status,
        state: "connected",
        toolCount: tools.length,
        tools: tools.map((t): McpToolSummary => ({ name: t.name, description: t.description })),
      };
      return tools;
    } catch (err) {
      const timedOut = McpError.isInstance(err) && err.code === "MCP_TIMEOUT";
      const reason = timedOut
        ? `Skipping MCP server '${name}' after tool discovery timed out (${timeoutMs / 1000}s)`
        : `Skipping MCP server '${name}': tool discovery failed: ${(err as Error).message}`;
      this.#logger.warn({ server: name, err }, reason);
      state.status = { ...state.status, state: "failed", error: reason };
      // A connect still under way is closed when it settles (its own timeout bounds it).
      void work.catch(() => undefined);
      return [];
    } finally {
      clearTimeout(timer);
      const closeDiscovery = (): void => {
        gen.lifetime.signal.removeEventListener("abort", onClose);
        void client?.close().catch(() => undefined);
      };
      void work.then(closeDiscovery, closeDiscovery);
    }
  }

  #wrap(
    gen: Generation,
    server: string,
    spec: McpServerSpec,
    discovered: readonly DynamicStructuredTool[],
  ): StructuredToolInterface[] {
    const callTimeoutMs =
      spec.toolCallTimeout === undefined ? (this.#options.callTimeoutMs ?? 120_000) : spec.toolCallTimeout * 1000;
    const pooledPerThread = (spec.type ?? "stdio") === "stdio";
    const out: StructuredToolInterface[] = [];
    for (const d of discovered) {
      const original = d.name;
      const name = mcpToolName(server, original, spec.toolNamePrefix !== false);
      if (!MCP_TOOL_NAME_PATTERN.test(name)) {
        this.#logger.warn(
          { server, tool: original },
          `Dropping MCP tool '${name}': the name must match ${MCP_TOOL_NAME_PATTERN.source}`,
        );
        continue;
      }
      const metadata: McpToolMetadata = { server, tool: original };
      const timeoutError = `MCP tool '${original}' on server '${server}' timed out after ${callTimeoutMs / 1000}s`;
      const timeoutOnly = { timeout: callTimeoutMs };
      gen.keepTimerList(callTimeoutMs);
      const callOn = (client: Client, args: Record<string, unknown>, config: RunnableConfig) =>
        client.callTool(
          { name: original, arguments: args },
          undefined,
          config.signal === undefined ? timeoutOnly : { timeout: callTimeoutMs, signal: config.signal },
        ) as Promise<CallToolResult>;
      const failure = (err: unknown): McpError =>
        (err as { code?: unknown }).code === -32001
          ? new McpError("MCP_TIMEOUT", timeoutError, { cause: err })
          : new McpError(
              "MCP_CALL_FAILED",
              `MCP tool '${original}' on server '${server}' failed: ${(err as Error).message}`,
              {
                cause: err,
              },
            );
      const answer = (result: CallToolResult): McpToolAnswer => {
        if (result.isError === true) throw new McpError("MCP_CALL_FAILED", mcpErrorText(result));
        return [toToolContent(result), { server, tool: original, structuredContent: result.structuredContent }];
      };
      // The first call of a scope opens (or waits for) its session.
      const runOpening = async (
        args: Record<string, unknown>,
        config: RunnableConfig,
        scopeKey: string,
      ): Promise<McpToolAnswer> => {
        gen.enter();
        try {
          const lease = await gen.pool.acquire(server, scopeKey, pooledPerThread ? scopeOf(config) : undefined);
          let result: CallToolResult;
          try {
            result = await callOn(lease.client, args, config);
          } catch (err) {
            throw failure(err);
          } finally {
            lease.release();
          }
          return answer(result);
        } finally {
          gen.leave();
        }
      };
      // Every later call: the open session without an await before the request, one promise layer after it.
      const run = (args: Record<string, unknown>, config: RunnableConfig): Promise<McpToolAnswer> => {
        const scopeKey = pooledPerThread ? gen.scopeKey(config) : "";
        const session = gen.pool.leaseOpen(server, scopeKey);
        if (session === undefined) return runOpening(args, config, scopeKey);
        gen.enter();
        let pending: Promise<CallToolResult>;
        try {
          pending = callOn(session.client, args, config);
        } catch (err) {
          gen.pool.release(session);
          gen.leave();
          return Promise.reject(failure(err));
        }
        // Inline reactions, no named closure per call: tsx (the bench runs under it) wraps each in `__name`.
        return pending.then(
          (result) => {
            gen.pool.release(session);
            gen.leave();
            return answer(result);
          },
          (err: unknown) => {
            gen.pool.release(session);
            gen.leave();
            throw failure(err);
          },
        );
      };
      out.push(
        new McpTool({
          name,
          description: d.description,
          schema: d.schema as JSONSchema,
          metadata: { mcp: metadata },
          run,
        }),
      );
    }
    return out;
  }
}
