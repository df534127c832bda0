import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Db, MongoClient, ObjectId } from "mongodb";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { readServerEnv, resolveDbName, ServerConfigError } from "./env-config.ts";
import { deepMerge, loadConfigModule } from "./load-config.ts";
import { type RunningServer, startServer } from "./server.ts";

const SECRET = "server-test-secret-0123456789abcdef";
const quiet = { log: () => {}, printMail: () => {} };
let mongo: MongoClient;
let workDir: string;
const dbNames: string[] = [];

beforeAll(async () => {
  mongo = new MongoClient(inject("mongoUri"), { serverSelectionTimeoutMS: 5000 });
  workDir = await mkdtemp(join(tmpdir(), "tessera-server-test-"));
});

afterAll(async () => {
  for (const name of dbNames)
    await mongo
      .db(name)
      .dropDatabase()
      .catch(() => {});
  await mongo.close();
  await rm(workDir, { recursive: true, force: true });
});

function testEnv(extra: Record<string, string> = {}): Record<string, string> {
  const name = `srv_${randomBytes(6).toString("hex")}`;
  dbNames.push(name);
  return {
    PORT: "0",
    MONGODB_URI: inject("mongoUri"),
    TESSERA_DB_NAME: name,
    TESSERA_SECRET: SECRET,
    ...extra,
  };
}

/** A raw HTTP/1.1 exchange: fetch cannot send some methods or request targets. */
function rawRequest(
  port: number,
  method: string,
  path: string,
): Promise<{ status: number; body: string; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, method, path, agent: false }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => {
        body += chunk.toString();
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("readServerEnv", () => {
  it("defaults to port 3000, loopback outside production, and every interface in production", () => {
    expect(readServerEnv({})).toMatchObject({ port: 3000, host: "127.0.0.1", isProduction: false });
    expect(readServerEnv({ NODE_ENV: "production" }).host).toBeUndefined();
    expect(readServerEnv({ HOST: "0.0.0.0" }).host).toBe("0.0.0.0");
  });

  it("splits TESSERA_TRUSTED_ORIGINS on commas and drops blanks", () => {
    const env = readServerEnv({ TESSERA_TRUSTED_ORIGINS: " https://a.test, ,https://*.b.test," });
    expect(env.trustedOrigins).toEqual(["https://a.test", "https://*.b.test"]);
  });

  it.each(["abc", "-1", "70000", "3.5"])("refuses PORT=%s with a message naming PORT", (port) => {
    expect(() => readServerEnv({ PORT: port })).toThrow(ServerConfigError);
    expect(() => readServerEnv({ PORT: port })).toThrow(/^PORT must be an integer from 0 to 65535/);
  });

  it("refuses a TESSERA_BASE_URL that is not an absolute http(s) URL", () => {
    expect(() => readServerEnv({ TESSERA_BASE_URL: "localhost:3000" })).toThrow(/TESSERA_BASE_URL/);
    expect(readServerEnv({ TESSERA_BASE_URL: "https://auth.example.com/" }).baseURL).toBe(
      "https://auth.example.com",
    );
  });
});

describe("resolveDbName", () => {
  it("prefers TESSERA_DB_NAME, then the URI's database, then 'tessera'", () => {
    expect(resolveDbName("mongodb://h:1/fromuri", "explicit")).toBe("explicit");
    expect(resolveDbName("mongodb://h:1/fromuri?x=1", undefined)).toBeUndefined();
    expect(resolveDbName("mongodb://h:1/", undefined)).toBe("tessera");
    expect(resolveDbName("mongodb://h:1", undefined)).toBe("tessera");
    expect(resolveDbName("mongodb+srv://u:p@cluster.test/?retryWrites=true", undefined)).toBe("tessera");
  });
});

describe("deepMerge", () => {
  it("merges plain objects key by key and replaces arrays and class instances", () => {
    const db = new Db(new MongoClient("mongodb://127.0.0.1:1"), "x");
    const merged = deepMerge(
      {
        session: { expiresIn: 10, cookieCache: { enabled: false, maxAge: 60 } },
        trustedOrigins: ["a"],
        x: 1,
      },
      { session: { cookieCache: { enabled: true } }, trustedOrigins: ["b"], database: db, x: undefined },
    );
    expect(merged).toEqual({
      session: { expiresIn: 10, cookieCache: { enabled: true, maxAge: 60 } },
      trustedOrigins: ["b"],
      database: db,
      x: 1,
    });
    expect((merged as Record<string, unknown>).database).toBe(db);
  });
});

describe("loadConfigModule", () => {
  it("accepts a default-exported function and resolves a relative path against cwd", async () => {
    await writeFile(join(workDir, "fn.mjs"), "export default async () => ({ appName: 'From Fn' });\n");
    expect(await loadConfigModule("fn.mjs", workDir)).toEqual({ appName: "From Fn" });
  });

  it("names the file when it is missing or exports no object", async () => {
    await expect(loadConfigModule("missing.mjs", workDir)).rejects.toThrow(/TESSERA_CONFIG: no such file/);
    await writeFile(join(workDir, "bad.mjs"), "export default 42;\n");
    await expect(loadConfigModule("bad.mjs", workDir)).rejects.toThrow(
      /must default-export an options object/,
    );
  });
});

describe("startServer", () => {
  let server: RunningServer;
  beforeAll(async () => {
    await writeFile(
      join(workDir, "cfg.mjs"),
      "export default { appName: 'Cfg', rateLimit: { enabled: false } };\n",
    );
    server = await startServer({
      ...quiet,
      env: testEnv({ TESSERA_CONFIG: "cfg.mjs", TESSERA_TRUSTED_ORIGINS: "http://app.test" }),
      cwd: workDir,
      overrides: { session: { cookieCache: { enabled: true } } },
    });
  });
  afterAll(() => server?.close());

  it("announces a localhost URL on the chosen port and merges env, config module and overrides", () => {
    expect(server.url).toBe(`http://localhost:${server.port}/api/auth`);
    const options = server.auth.context.options;
    expect(options.appName).toBe("Cfg");
    expect(options.rateLimit.enabled).toBe(false);
    expect(options.session.cookieCache.enabled).toBe(true);
    expect(options.baseURL).toBe(`http://localhost:${server.port}`);
    expect(options.trustedOrigins).toEqual(["http://app.test"]);
    expect(server.outbox).not.toBeNull();
  });

  it("keeps a '//host' request target a path (404), never a host", async () => {
    const reply = await rawRequest(server.port, "GET", "//evil.test/api/auth/ok");
    expect(reply.status).toBe(404);
    expect(JSON.parse(reply.body)).toEqual({ code: "NOT_FOUND", message: "Not found" });
  });

  it("routes any method like the engine: 405 with Allow on a known path, 404 on an unknown one", async () => {
    for (const method of ["TRACE", "PROPFIND", "DELETE"]) {
      const known = await rawRequest(server.port, method, "/api/auth/ok");
      expect(known.status).toBe(405);
      expect(known.headers.allow).toBe("GET, HEAD");
      expect(JSON.parse(known.body)).toEqual({ code: "METHOD_NOT_ALLOWED", message: "Method not allowed" });
      const unknown = await rawRequest(server.port, method, "/api/auth/nope");
      expect(unknown.status).toBe(404);
      expect(JSON.parse(unknown.body)).toEqual({ code: "NOT_FOUND", message: "Not found" });
    }
  });

  it("answers HEAD with the GET status and no body", async () => {
    const reply = await rawRequest(server.port, "HEAD", "/api/auth/ok");
    expect(reply).toMatchObject({ status: 200, body: "" });
  });

  it("trusts TESSERA_TRUSTED_ORIGINS for cookie-bearing POSTs and refuses other origins", async () => {
    const post = (origin: string) =>
      fetch(`http://127.0.0.1:${server.port}/api/auth/sign-out`, {
        method: "POST",
        headers: { origin, cookie: "tessera.session_token=x.y", "content-type": "application/json" },
        body: "{}",
      });
    expect((await post("http://app.test")).status).toBe(200);
    expect((await post("http://evil.test")).status).toBe(403);
  });
});

describe("startServer cleanup", () => {
  it("removes expired sessions on its cleanup interval, without a request", async () => {
    const server = await startServer({ ...quiet, env: testEnv(), cleanupIntervalMs: 50 });
    try {
      const sessions = server.auth.context.collections.sessions;
      const past = new Date(Date.now() - 1000);
      await sessions.insertOne({
        _id: new ObjectId(),
        userId: new ObjectId(),
        token: "expired-session-token-for-cleanup",
        expiresAt: past,
        createdAt: past,
        updatedAt: past,
        ipAddress: null,
        userAgent: null,
        activeOrganizationId: null,
        dontRemember: false,
      });
      await expect
        .poll(() => sessions.countDocuments({ token: "expired-session-token-for-cleanup" }), {
          timeout: 5000,
        })
        .toBe(0);
    } finally {
      await server.close();
    }
  });
});

describe("startServer shutdown", () => {
  it("closes promptly with an idle keep-alive connection open, and stops listening", async () => {
    const server = await startServer({ ...quiet, env: testEnv() });
    const response = await fetch(`http://127.0.0.1:${server.port}/api/auth/ok`);
    expect(response.headers.get("connection")).toBe("keep-alive");
    await response.text();
    const started = Date.now();
    await server.close();
    expect(Date.now() - started).toBeLessThan(2000);
    await expect(fetch(`http://127.0.0.1:${server.port}/api/auth/ok`)).rejects.toThrow();
  });

  it("refuses to start in production without a secret, and accepts one given as an option (config module or overrides)", async () => {
    const env = testEnv({ NODE_ENV: "production", HOST: "127.0.0.1" });
    delete env.TESSERA_SECRET;
    await expect(startServer({ ...quiet, env })).rejects.toThrow(
      /^TESSERA_SECRET is required when NODE_ENV=production/,
    );
    const server = await startServer({ ...quiet, env, overrides: { secret: SECRET } });
    expect(server.auth.context.options.secret).toBe(SECRET);
    await server.close();
  });
});
