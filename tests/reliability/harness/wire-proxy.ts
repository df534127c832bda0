import { createServer, type Server, Socket } from "node:net";

/**
 * A TCP proxy on 127.0.0.1 between the server and the database that reads the MongoDB wire
 * protocol's message framing on the way in. It can slow every round trip (the slow-database
 * scenario), count the commands in flight (what piles up), and stop the world at the k-th command
 * (the crash scenario kills the server there, before the command reaches the database).
 */
export interface WireProxyOptions {
  targetPort: number;
  /** Added to every command on its way to the database, so to every round trip. @default 0 */
  delayMs?: number;
}

/** Commands the driver sends on its own (monitoring, handshakes), not on behalf of a request. */
const DRIVER_COMMANDS = new Set(["hello", "ismaster", "isMaster", "ping", "endSessions", "buildInfo"]);

export class WireProxy {
  port = 0;
  delayMs: number;
  /** Commands sent to the database that have no reply yet (request work in flight). */
  inFlight = 0;
  /** Request commands forwarded since the last `resetCount`. */
  commands = 0;
  private readonly targetPort: number;
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private tripAt: number | null = null;
  private onTrip: (() => void) | null = null;
  /** Once tripped, nothing more reaches the database until `release`. */
  private tripped = false;

  constructor(options: WireProxyOptions) {
    this.targetPort = options.targetPort;
    this.delayMs = options.delayMs ?? 0;
  }

  async start(): Promise<void> {
    const server = createServer((client) => this.pipe(client));
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  get uri(): string {
    return `mongodb://127.0.0.1:${this.port}/`;
  }

  resetCount(): void {
    this.commands = 0;
  }

  /**
   * Calls `onTrip` when the `k`-th request command (counted from now, 1-based) arrives, and holds
   * that command and everything after it back from the database until `release`.
   */
  tripAtCommand(k: number, onTrip: () => void): void {
    this.commands = 0;
    this.tripAt = k;
    this.onTrip = onTrip;
  }

  release(): void {
    this.tripAt = null;
    this.onTrip = null;
    this.tripped = false;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private pipe(client: Socket): void {
    const upstream = new Socket();
    upstream.connect(this.targetPort, "127.0.0.1");
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
      socket.on("error", () => socket.destroy());
    }
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
    let pending = Buffer.alloc(0);
    /** Per command awaiting its reply, in order: whether it counts in `inFlight`. */
    const awaitingReplies: boolean[] = [];
    client.on("data", (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4) {
        const length = pending.readInt32LE(0);
        if (pending.length < length) break;
        const message = pending.subarray(0, length);
        pending = pending.subarray(length);
        const name = commandName(message);
        if (!this.admit(name)) return;
        // The driver's own commands (monitoring hellos, which the server may hold for seconds) are
        // forwarded but not counted as request work in flight.
        const counted = !DRIVER_COMMANDS.has(name);
        awaitingReplies.push(counted);
        if (counted) this.inFlight++;
        const send = () => {
          if (!upstream.destroyed) upstream.write(message);
        };
        if (this.delayMs > 0) setTimeout(send, this.delayMs);
        else send();
      }
    });
    // Replies are framed the same way; one reply per command (no exhaust cursors here).
    let replyBytesLeft = 0;
    let header = Buffer.alloc(0);
    upstream.on("data", (chunk: Buffer) => {
      let offset = 0;
      while (offset < chunk.length) {
        if (replyBytesLeft > 0) {
          const taken = Math.min(replyBytesLeft, chunk.length - offset);
          replyBytesLeft -= taken;
          offset += taken;
          continue;
        }
        const need = 4 - header.length;
        header = Buffer.concat([header, chunk.subarray(offset, offset + need)]);
        offset += Math.min(need, chunk.length - offset);
        if (header.length < 4) break;
        replyBytesLeft = header.readInt32LE(0) - 4;
        header = Buffer.alloc(0);
        if (awaitingReplies.shift()) this.inFlight--;
      }
      client.write(chunk);
    });
    const settle = () => {
      for (const counted of awaitingReplies.splice(0)) if (counted) this.inFlight--;
    };
    client.once("close", settle);
  }

  /** False once the trip point is reached: the message is dropped (the server is being killed). */
  private admit(name: string): boolean {
    if (this.tripped) return false;
    if (DRIVER_COMMANDS.has(name) || this.tripAt === null) {
      if (!DRIVER_COMMANDS.has(name)) this.commands++;
      return true;
    }
    this.commands++;
    if (this.commands < this.tripAt) return true;
    this.tripped = true;
    this.onTrip?.();
    return false;
  }
}

/** The command of an OP_MSG (its body's first key), e.g. "insert"; "" for anything else. */
function commandName(message: Buffer): string {
  const OP_MSG = 2013;
  if (message.length < 27 || message.readInt32LE(12) !== OP_MSG) return "";
  // header (16) · flagBits (4) · section kind 0 (1) · BSON length (4) · element type (1) · name
  if (message[20] !== 0) return "";
  const start = 26;
  const end = message.indexOf(0, start);
  return end === -1 ? "" : message.toString("latin1", start, end);
}
