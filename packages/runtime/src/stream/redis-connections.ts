/**
 * The connections of a {@link RedisStreamBridge}: its command client (the
 * caller's, or one it creates from `url` and owns), and one dedicated
 * connection per subscriber waiting in a blocking `XREAD`, so a wait never
 * holds up the publishes.
 */
import { Redis, type RedisOptions } from "ioredis";
import { RuntimeError } from "../errors.js";
import type { Logger } from "../logger.js";

/**
 * ioredis settings of the connections the bridge creates: a queued command
 * fails after 2 failed reconnects (instead of 20), and reconnect delays stop
 * growing at ~1 s (instead of 5 s), so each of the bridge's own attempts ends
 * within a few seconds while Redis is down and `retry` alone sets the budget.
 */
const OWNED_CLIENT_OPTIONS = {
  maxRetriesPerRequest: 2,
  retryStrategy: (times: number): number => Math.min(50 * 2 ** (times - 1), 1_000) + Math.floor(Math.random() * 100),
} satisfies Partial<RedisOptions>;

/** The bridge's command client. */
export interface BridgeClient {
  readonly redis: Redis;
  /** True when the bridge created the client (and so quits it on close). */
  readonly owned: boolean;
}

/**
 * The caller's client, or one created from `url`.
 *
 * @throws RuntimeError `CONFIG_INVALID` when `url` is given but empty.
 */
export function connectBridgeClient(
  connection: { redis?: Redis | undefined; url?: string | undefined },
  logger: Logger,
): BridgeClient {
  if (connection.redis !== undefined) return { redis: connection.redis, owned: false };
  if (typeof connection.url !== "string" || connection.url.length === 0)
    throw new RuntimeError("CONFIG_INVALID", "url must be a non-empty Redis URL");
  const redis = new Redis(connection.url, OWNED_CLIENT_OPTIONS);
  redis.on("error", (error: Error) => logger.debug({ err: error.message }, "stream bridge: Redis connection error"));
  return { redis, owned: true };
}

/** Closes a client the bridge created: QUIT when connected (falling back to a disconnect), else disconnect. */
export async function closeOwnedClient(redis: Redis): Promise<void> {
  if (redis.status === "ready") await redis.quit().catch(() => redis.disconnect());
  else redis.disconnect();
}

/** The dedicated connections of the subscribers waiting in a blocking read. */
export class BlockingConnections {
  private readonly open = new Set<Redis>();

  constructor(
    private readonly redis: Redis,
    private readonly logger: Logger,
  ) {}

  /** A connection of its own for one subscriber's blocking reads, each of which waits at most `heartbeatMs`. */
  acquire(heartbeatMs: number): Redis {
    const connection = this.redis.duplicate({
      lazyConnect: false,
      enableOfflineQueue: true,
      autoResendUnfulfilledCommands: true,
      maxRetriesPerRequest: OWNED_CLIENT_OPTIONS.maxRetriesPerRequest,
      // A blocking read must not be cut by a command timeout, but must not hang on a dead socket either.
      commandTimeout: undefined,
      blockingTimeout: heartbeatMs,
    } satisfies Partial<RedisOptions>);
    connection.on("error", (error: Error) =>
      this.logger.debug({ err: error.message }, "stream bridge: subscriber connection error"),
    );
    this.open.add(connection);
    return connection;
  }

  /** Disconnects a connection whose subscription ended. */
  release(connection: Redis): void {
    this.open.delete(connection);
    connection.disconnect();
  }

  /** Disconnects every connection (the bridge closes). */
  closeAll(): void {
    for (const connection of this.open) connection.disconnect();
    this.open.clear();
  }
}
