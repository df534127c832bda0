import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import type { DevOutbox } from "@tessera/auth-core";
import { type ConfigOptions, type RunningServer, startServer } from "@tessera/auth-core/server";
import { type Db, MongoClient } from "mongodb";
import { afterAll, beforeAll, inject } from "vitest";

/**
 * The standalone server on 127.0.0.1 with its own database, as the client tests' live server.
 * Its base URL is its 127.0.0.1 origin (a free port is picked first), so cookies, the Origin check
 * and CORS see what a browser on that origin would send.
 */
export interface LiveServer {
  server: RunningServer;
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  outbox: DevOutbox;
  db: Db;
  close(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

export async function startLiveServer(overrides: ConfigOptions = {}, env: Record<string, string> = {}) {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const dbName = `client_${randomBytes(6).toString("hex")}`;
  const server = await startServer({
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      MONGODB_URI: inject("mongoUri"),
      TESSERA_DB_NAME: dbName,
      TESSERA_SECRET: "client-test-secret-0123456789abcdef",
      TESSERA_BASE_URL: origin,
      ...env,
    },
    overrides: {
      rateLimit: { enabled: false },
      logger: { info: () => {}, warn: () => {}, error: () => {} },
      advanced: { checkResponses: true },
      ...overrides,
    },
    log: () => {},
    printMail: () => {},
  });
  const mongo = new MongoClient(inject("mongoUri"), { serverSelectionTimeoutMS: 5000 });
  const db = mongo.db(dbName);
  const live: LiveServer = {
    server,
    origin,
    outbox: server.outbox!,
    db,
    async close() {
      await server.close();
      await db.dropDatabase().catch(() => {});
      await mongo.close();
    },
  };
  return live;
}

/**
 * The live server of a test file: started before its tests, closed (its database dropped) after
 * them. The returned object is filled in by then.
 */
export function liveServerForFile(overrides: ConfigOptions = {}): LiveServer {
  const live = {} as LiveServer;
  beforeAll(async () => {
    Object.assign(live, await startLiveServer(overrides));
  });
  afterAll(async () => {
    await live.close?.();
  });
  return live;
}

/** A recorded request: method and path under the base path. */
interface SeenRequest {
  method: string;
  path: string;
}

/**
 * What a browser adds to a fetch on its own, for the client in Node: a cookie jar (Set-Cookie kept,
 * Cookie sent back) and the page's Origin. It wraps the real fetch — every request still crosses
 * real HTTP — and records what was sent.
 */
export interface BrowserLikeFetch {
  fetch: typeof fetch;
  cookies: Map<string, string>;
  seen: SeenRequest[];
  /** How many requests to `path` were sent. */
  count(path: string): number;
  /** How many requests to `path` have been answered. */
  answered(path: string): number;
}

export function browserLikeFetch(pageOrigin: string): BrowserLikeFetch {
  const cookies = new Map<string, string>();
  const seen: SeenRequest[] = [];
  const answers: string[] = [];
  const wrapped = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input));
    const headers = new Headers(init.headers);
    if (cookies.size > 0) headers.set("cookie", [...cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    headers.set("origin", pageOrigin);
    seen.push({ method: init.method ?? "GET", path: url.pathname.replace(/^\/api\/auth/, "") });
    const response = await fetch(url, { ...init, headers });
    answers.push(url.pathname.replace(/^\/api\/auth/, ""));
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === "" || attributes.some((a) => a.trim().toLowerCase() === "max-age=0"))
        cookies.delete(name);
      else cookies.set(name, value);
    }
    return response;
  };
  return {
    fetch: wrapped as typeof fetch,
    cookies,
    seen,
    count: (path) => seen.filter((request) => request.path === path).length,
    answered: (path) => answers.filter((answer) => answer === path).length,
  };
}

/** Polls `condition` every 5 ms until it holds (fails after `timeoutMs`). */
export async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  // performance.now: tests that fake Date still time out here.
  const start = performance.now();
  while (!condition()) {
    if (performance.now() - start > timeoutMs) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
