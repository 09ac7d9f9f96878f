/**
 * MCP client sessions kept per (server, scope) — DeerFlow pools stdio sessions
 * per thread so consecutive calls in a thread share server state. LRU-bounded
 * (DeerFlow: 256) with an idle close; a session is never closed under a call:
 * an evicted or idle one closes when its last call ends.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { LruCache, type Logger } from "@deerflow/kernel";

/** Opens a session for a server; `context` is what the first caller of the scope passed to `acquire`. */
type SessionOpener<C> = (server: string, context: C | undefined) => Promise<Client>;

/** Options of {@link McpSessionPool}. */
export interface McpSessionPoolOptions<C = unknown> {
  readonly open: SessionOpener<C>;
  /** Most sessions kept (LRU beyond). Default 256. */
  readonly maxSessions?: number;
  /** A session unused this long is closed. Default 10 minutes; 0 = never. */
  readonly idleMs?: number;
  readonly logger: Logger;
}

interface PooledSession {
  readonly key: string;
  readonly server: string;
  readonly scope: string;
  readonly opening: Promise<Client>;
  /** The client once open (what {@link McpSessionPool.leaseOpen} hands out without an await). */
  client: Client | undefined;
  active: number;
  /** Removed from the pool: close when `active` reaches 0. */
  retired: boolean;
  /** When the last call ended (ms since epoch). */
  lastUsed: number;
}

/** A leased session: call {@link SessionLease.release} when the call ends. */
export interface SessionLease {
  readonly client: Client;
  release(): void;
}

/** An open session leased by {@link McpSessionPool.leaseOpen}: hand it back with {@link McpSessionPool.release}. */
export interface OpenSession {
  readonly client: Client;
}

/** The pool. */
export class McpSessionPool<C = unknown> {
  readonly #options: McpSessionPoolOptions<C>;
  readonly #sessions: LruCache<string, PooledSession>;
  readonly #closing = new Set<Promise<void>>();
  #closed = false;
  /**
   * The session touched last, so the most recent in the LRU order: a thread calling again finds it by
   * comparing two strings, without building the key or reordering the map.
   */
  #newest: PooledSession | undefined;
  #sweeper: NodeJS.Timeout | undefined;

  /** @param options - opener, bounds, logger */
  constructor(options: McpSessionPoolOptions<C>) {
    this.#options = options;
    this.#sessions = new LruCache(options.maxSessions ?? 256);
    const idleMs = options.idleMs ?? 600_000;
    if (idleMs > 0) {
      this.#sweeper = setInterval(() => this.#sweepIdle(), Math.max(10, Math.min(idleMs / 2, 60_000)));
      this.#sweeper.unref();
    }
  }

  /** Sessions held now. */
  get size(): number {
    return this.#sessions.size;
  }

  /**
   * Leases the session of (server, scope) when it is open already: no await, no lease object (the
   * per-call path). Release it with {@link release}, exactly once.
   *
   * @param server - the server's name
   * @param scope - the thread id (or any scope key)
   * @returns the session, or `undefined` when it is not open (then {@link acquire} opens or waits for it)
   */
  leaseOpen(server: string, scope: string): OpenSession | undefined {
    let entry = this.#newest;
    if (entry === undefined || entry.server !== server || entry.scope !== scope) {
      entry = this.#sessions.get(`${server}\u0000${scope}`);
      if (entry === undefined) return undefined;
      this.#newest = entry;
    }
    if (entry.client === undefined || entry.retired || this.#closed) return undefined;
    entry.active += 1;
    return entry as unknown as OpenSession;
  }

  /**
   * Hands back a session leased by {@link leaseOpen}.
   *
   * @param session - the session
   */
  release(session: OpenSession): void {
    const held = session as unknown as PooledSession;
    held.active -= 1;
    if (held.active > 0) return;
    held.lastUsed = Date.now();
    if (held.retired) this.#closeEntry(held);
  }

  /**
   * Leases the session of (server, scope), opening it if needed.
   *
   * @param server - the server's name
   * @param scope - the thread id (or any scope key)
   * @param context - handed to the opener when this call opens the session
   * @returns the lease
   * @throws whatever the opener throws (the failed session is not kept)
   */
  async acquire(server: string, scope: string, context?: C): Promise<SessionLease> {
    if (this.#closed) throw new Error("MCP session pool is closed");
    const key = `${server}\u0000${scope}`;
    let entry = this.#sessions.get(key);
    if (entry === undefined) {
      const opened = this.#options.open(server, context);
      entry = {
        key,
        server,
        scope,
        opening: opened,
        client: undefined,
        active: 0,
        retired: false,
        lastUsed: Date.now(),
      };
      const created = entry;
      for (const [, evicted] of this.#sessions.set(key, created)) this.#retire(evicted);
      opened.then(
        (client) => {
          created.client = client;
          // A server that exits drops out of the pool; the next call opens a new session.
          client.onclose = () => this.#drop(created);
        },
        () => this.#drop(created),
      );
    }
    this.#newest = entry;
    const held = entry;
    held.active += 1;
    let client: Client;
    try {
      client = await held.opening;
    } catch (err) {
      held.active -= 1;
      throw err;
    }
    let released = false;
    return {
      client,
      release: () => {
        if (released) return;
        released = true;
        held.active -= 1;
        if (held.active > 0) return;
        held.lastUsed = Date.now();
        if (held.retired) this.#closeEntry(held);
      },
    };
  }

  /**
   * Closes every session (waiting for calls in flight is the caller's job).
   *
   * @returns when every session has closed
   */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#sweeper);
    const all = this.#sessions.values();
    this.#sessions.clear();
    this.#newest = undefined;
    for (const entry of all) {
      entry.retired = true;
      this.#closeEntry(entry);
    }
    await Promise.all([...this.#closing]);
  }

  /** One sweep timer for the pool (not a timer per call): closes sessions idle longer than `idleMs`. */
  #sweepIdle(): void {
    const idleMs = this.#options.idleMs ?? 600_000;
    const now = Date.now();
    for (const entry of this.#sessions.values()) {
      if (entry.active > 0 || now - entry.lastUsed < idleMs) continue;
      this.#sessions.delete(entry.key);
      if (this.#newest === entry) this.#newest = undefined;
      entry.retired = true;
      this.#closeEntry(entry);
    }
  }

  #drop(entry: PooledSession): void {
    if (this.#sessions.get(entry.key) === entry) this.#sessions.delete(entry.key);
    // That `get` reordered the LRU: what was the newest may not be now.
    this.#newest = undefined;
    entry.retired = true;
  }

  #retire(entry: PooledSession): void {
    if (this.#newest === entry) this.#newest = undefined;
    entry.retired = true;
    if (entry.active === 0) this.#closeEntry(entry);
  }

  #closeEntry(entry: PooledSession): void {
    const closing = entry.opening
      .then((client) => client.close())
      .catch((err: unknown) => this.#options.logger.debug({ err, session: entry.key }, "closing an MCP session failed"))
      .finally(() => this.#closing.delete(closing));
    this.#closing.add(closing);
  }
}
