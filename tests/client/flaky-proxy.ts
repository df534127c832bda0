import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A real HTTP server in front of the live server that fails the first requests to one path — with
 * a status (and headers), or by dropping the connection after reading the request — and forwards
 * everything else. Retry tests count what reached it and when.
 */
export interface FailurePlan {
  path: string;
  failures: number;
  /** A status to answer with, or "drop" to destroy the socket once the request is read. */
  answer: number | "drop";
  headers?: Record<string, string>;
  body?: unknown;
}

export interface FlakyProxy {
  origin: string;
  /** Arrival times (ms, performance.now) of the requests to the plan's path. */
  hits: number[];
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startFlakyProxy(target: string, plan: FailurePlan): Promise<FlakyProxy> {
  const hits: number[] = [];
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBody(req);
    const path = (req.url ?? "").split("?")[0]!.replace(/^\/api\/auth/, "");
    if (path === plan.path) {
      hits.push(performance.now());
      if (hits.length <= plan.failures) {
        if (plan.answer === "drop") return void req.socket.destroy();
        res.writeHead(plan.answer, { "content-type": "application/json", ...plan.headers });
        return void res.end(
          JSON.stringify(plan.body ?? { code: "SERVICE_UNAVAILABLE", message: "failing on purpose" }),
        );
      }
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers))
      if (name !== "host" && name !== "connection" && typeof value === "string") headers.set(name, value);
    const method = req.method ?? "GET";
    const response = await fetch(target + req.url, {
      method,
      headers,
      body: method === "GET" || method === "HEAD" ? undefined : new Uint8Array(body),
    });
    const out: string[] = [];
    for (const [name, value] of response.headers)
      if (!["set-cookie", "content-length", "content-encoding", "transfer-encoding"].includes(name))
        out.push(name, value);
    for (const cookie of response.headers.getSetCookie()) out.push("set-cookie", cookie);
    res.writeHead(response.status, out);
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
