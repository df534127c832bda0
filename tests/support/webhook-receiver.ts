import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A webhook receiver on 127.0.0.1 (features/webhooks tests): a real HTTP server that records every
 * request and answers as the test says — 204, a status, too slowly, by dropping the connection, or
 * with a redirect. The test verifies each recorded delivery with the independent standardwebhooks
 * package (a dev dependency of auth-core, so the check lives in the test file).
 */

export interface ReceivedDelivery {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  headers: Record<string, string>;
  /** What the receiver answered: a status, or "slow"/"close" when it did not answer in time or at all. */
  answered: number | "slow" | "close";
}

type ReceiverMode =
  | { kind: "status"; status: number }
  | { kind: "slow"; ms: number }
  | { kind: "close" }
  | { kind: "redirect"; location: string };

export interface WebhookReceiver {
  url: string;
  received: ReceivedDelivery[];
  /** How the next requests are answered (default: 204). */
  answer(mode: ReceiverMode): void;
  /** Resolves once `count` requests answered 2xx have arrived (or rejects after `timeoutMs`). */
  waitForDelivered(count: number, timeoutMs?: number): Promise<ReceivedDelivery[]>;
  /** The requests answered 2xx. */
  delivered(): ReceivedDelivery[];
  close(): Promise<void>;
}

export async function startWebhookReceiver(path = "/hooks"): Promise<WebhookReceiver> {
  let mode: ReceiverMode = { kind: "status", status: 204 };
  const received: ReceivedDelivery[] = [];
  const waiters = new Set<() => void>();
  const isDelivered = (entry: ReceivedDelivery) =>
    typeof entry.answered === "number" && entry.answered >= 200 && entry.answered < 300;
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const headers = Object.fromEntries(
      Object.entries(request.headers).map(([key, value]) => [key, String(value)]),
    );
    const entry: ReceivedDelivery = {
      id: headers["webhook-id"] ?? "",
      timestamp: headers["webhook-timestamp"] ?? "",
      signature: headers["webhook-signature"] ?? "",
      body: Buffer.concat(chunks).toString("utf8"),
      headers,
      answered: 0,
    };
    received.push(entry);
    const current = mode;
    if (current.kind === "close") {
      entry.answered = "close";
      request.socket.destroy();
    } else if (current.kind === "slow") {
      entry.answered = "slow";
      setTimeout(() => response.writeHead(204).end(), current.ms).unref();
    } else if (current.kind === "redirect") {
      entry.answered = 302;
      response.writeHead(302, { location: current.location }).end();
    } else {
      entry.answered = current.status;
      response.writeHead(current.status).end();
    }
    for (const wake of waiters) wake();
  };
  const server = createServer((request, response) => {
    handle(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const delivered = () => received.filter(isDelivered);
  return {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    answer(next) {
      mode = next;
    },
    delivered,
    waitForDelivered(count, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (delivered().length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(delivered());
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`expected ${count} delivered webhooks, got ${delivered().length}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
