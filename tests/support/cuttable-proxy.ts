import { createServer, type Server, type Socket } from "node:net";

/** A TCP pass-through in front of the test database that can be cut and restored on one port. */
export class CuttableProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;
  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<void> {
    const server = createServer((client) => {
      const upstream = new (client.constructor as typeof Socket)();
      upstream.connect(this.targetPort, this.targetHost);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on("close", () => this.sockets.delete(socket));
        socket.on("error", () => socket.destroy());
      }
      this.forward(client, upstream);
      this.forward(upstream, client);
      client.on("close", () => upstream.destroy());
      upstream.on("close", () => client.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.port, "127.0.0.1", () => resolve());
    });
    const address = server.address();
    if (address && typeof address === "object") this.port = address.port;
    this.server = server;
  }

  /** While frozen, bytes are held back (not lost): a database that accepts and never answers. */
  private frozen = false;
  private readonly held: (() => void)[] = [];

  private forward(from: Socket, to: Socket): void {
    from.on("data", (chunk: Buffer) => {
      if (this.frozen) this.held.push(() => to.write(chunk));
      else to.write(chunk);
    });
  }

  freeze(): void {
    this.frozen = true;
  }

  thaw(): void {
    this.frozen = false;
    for (const send of this.held.splice(0)) send();
  }

  /** Drops the open connections and keeps accepting new ones: a network blip under pooled connections. */
  dropConnections(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  /** Refuses new connections and drops the open ones, like a database that went away. */
  async cut(): Promise<void> {
    this.thaw();
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
