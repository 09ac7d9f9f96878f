/**
 * A TCP proxy in front of Redis that can drop every connection and hold back
 * the server's replies once a client has sent a chosen command: the way to make
 * "a reply is still pending when the client closes" happen on purpose rather
 * than by timing.
 */
import net from "node:net";

export class HoldingProxy {
  private readonly server: net.Server;
  private readonly pairs = new Set<[net.Socket, net.Socket]>();
  /** Lower-case command name whose replies are held; none when undefined. */
  private holdAfter: string | undefined;
  /** Connections that sent the held command (so far). */
  heldConnections = 0;

  private constructor(server: net.Server) {
    this.server = server;
  }

  /** Starts a proxy on a free loopback port forwarding to `target`. */
  static async start(target: { host: string; port: number }): Promise<HoldingProxy> {
    let proxy!: HoldingProxy;
    const server = net.createServer((client) => proxy.accept(client, target));
    proxy = new HoldingProxy(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return proxy;
  }

  get url(): string {
    return `redis://127.0.0.1:${(this.server.address() as net.AddressInfo).port}`;
  }

  /** From now on, a connection that sends `command` gets no further reply. */
  holdRepliesAfter(command: string): void {
    this.holdAfter = command.toLowerCase();
  }

  /** Drops every proxied connection (the clients see the server go away and reconnect). */
  dropAll(): void {
    for (const [client, upstream] of this.pairs) {
      client.destroy();
      upstream.destroy();
    }
    this.pairs.clear();
  }

  async close(): Promise<void> {
    this.dropAll();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: net.Socket, target: { host: string; port: number }): void {
    const upstream = net.connect(target);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    this.pairs.add(pair);
    let holding = false;
    client.on("data", (chunk) => {
      if (
        !holding &&
        this.holdAfter !== undefined &&
        chunk.toString("latin1").toLowerCase().includes(`\r\n${this.holdAfter}\r\n`)
      ) {
        holding = true;
        this.heldConnections += 1;
      }
      upstream.write(chunk);
    });
    upstream.on("data", (chunk) => {
      if (!holding) client.write(chunk);
    });
    const end = (): void => {
      client.destroy();
      upstream.destroy();
      this.pairs.delete(pair);
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
  }
}
