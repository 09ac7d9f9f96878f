/**
 * A TCP proxy in front of Redis that can lose replies on purpose: the server
 * executes a command but its reply never reaches the client (the connection is
 * cut instead), which is what makes a naive retry write twice. It can also
 * refuse connections for a while, so ioredis gives up on queued commands and
 * the bridge's own retries run.
 */
import net from "node:net";

export class FlakyProxy {
  /** Replies dropped so far. */
  dropped = 0;
  private server: net.Server;
  private readonly sockets = new Set<net.Socket>();
  private dropArmed = 0;

  private constructor(
    private readonly target: { host: string; port: number },
    readonly port: number,
    server: net.Server,
  ) {
    this.server = server;
  }

  /** Starts a proxy to `targetUrl` on a free port. */
  static async start(targetUrl: string): Promise<FlakyProxy> {
    const parsed = new URL(targetUrl);
    const target = { host: parsed.hostname, port: Number(parsed.port || 6379) };
    let proxy: FlakyProxy | undefined;
    const server = net.createServer((client) => proxy?.accept(client));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    proxy = new FlakyProxy(target, (server.address() as net.AddressInfo).port, server);
    return proxy;
  }

  /** URL clients use. */
  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** The next `count` reply chunks (any connection) are dropped and their connections cut. */
  dropNextReplies(count = 1): void {
    this.dropArmed += count;
  }

  /** Cuts every connection now, refuses new ones for `ms`, then accepts again. */
  async refuseFor(ms: number): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, ms));
    const server = net.createServer((client) => this.accept(client));
    await new Promise<void>((resolve) => server.listen(this.port, "127.0.0.1", resolve));
    this.server = server;
  }

  /** Stops the proxy and cuts every connection. */
  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: net.Socket): void {
    const upstream = net.connect(this.target);
    this.sockets.add(client).add(upstream);
    const cut = (): void => {
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
    client.on("data", (chunk) => upstream.write(chunk));
    upstream.on("data", (chunk) => {
      if (this.dropArmed > 0) {
        this.dropArmed -= 1;
        this.dropped += 1;
        cut();
        return;
      }
      client.write(chunk);
    });
    client.on("error", cut).on("close", cut);
    upstream.on("error", cut).on("close", cut);
  }
}
