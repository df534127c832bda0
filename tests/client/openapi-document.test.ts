import { readFileSync } from "node:fs";
import { request } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contracts } from "../../packages/auth-core/src/contracts/index.ts";
import { ERROR_CATALOGUE } from "../../packages/auth-core/src/errors/catalogue.ts";
import type { OpenApiDocument } from "../../packages/auth-core/src/openapi/document.ts";
import { type LiveServer, startLiveServer } from "./live-server.ts";

/**
 * What generators and gateways read in the document besides its operations: named models, the
 * error codes, the headers of a 429 and of a sign-in, tag descriptions, the licence; and how it is
 * served: HEAD like GET, compressed when asked.
 */
let live: LiveServer;
let document: OpenApiDocument;
let schemas: Record<string, { properties?: Record<string, unknown>; anyOf?: unknown[] }>;
beforeAll(async () => {
  live = await startLiveServer({ organization: { teams: { enabled: true } } });
  document = (await (await fetch(`${live.origin}/api/auth/openapi.json`)).json()) as OpenApiDocument;
  schemas = (document.components as { schemas: typeof schemas }).schemas;
});
afterAll(async () => {
  await live?.close();
});

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

/** A request as written, answered as received: no decoding, nothing added (fetch would do both). */
function rawRequest(method: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${live.origin}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

const response = (path: string, method: string, status: string) =>
  document.paths[path]![method]!.responses[status] as { headers?: Record<string, unknown> };

describe("the OpenAPI document's models and headers", () => {
  it("names the models as components and refers to them from the operations", () => {
    for (const name of [
      "User",
      "Session",
      "Organization",
      "Member",
      "Invitation",
      "Team",
      "TeamMember",
      "ApiKey",
      "AuditEvent",
    ])
      expect(schemas[name]?.properties, name).toBeDefined();
    const media = (path: string, method: string) =>
      (document.paths[path]![method]!.responses["200"] as { content: Record<string, { schema: unknown }> })
        .content["application/json"]!.schema;
    expect(media("/api/auth/get-session", "get")).toEqual({
      anyOf: [{ $ref: "#/components/schemas/SessionAndUser" }, { type: "null" }],
    });
    expect(JSON.stringify(media("/api/auth/organization/get-full-organization", "get"))).toContain(
      '{"$ref":"#/components/schemas/FullOrganization"}',
    );
    expect(schemas.SessionAndUser!.properties).toEqual({
      session: { $ref: "#/components/schemas/Session" },
      user: { $ref: "#/components/schemas/User" },
    });
  });

  it("says a JSON value without a definition that refers to itself", () => {
    expect(JSON.stringify(schemas.JsonValue)).not.toContain("$ref");
    const create = JSON.stringify(document.paths["/api/auth/api-key/create"]!.post!.requestBody);
    expect(create).toContain('"additionalProperties":{"$ref":"#/components/schemas/JsonValue"}');
  });

  it("lists every catalogue code, and only those, as the values of Error.code", () => {
    expect(schemas.Error!.properties!.code).toEqual({ type: "string", enum: Object.keys(ERROR_CATALOGUE) });
  });

  it("gives every tag a description and the package's licence", () => {
    const used = new Set(contracts.filter((c) => c.auth !== "server-only").flatMap((c) => c.tags));
    const tags = document.tags as { name: string; description: string }[];
    expect(tags.map((tag) => tag.name).sort()).toEqual([...used].sort());
    for (const tag of tags) expect(tag.description.length, tag.name).toBeGreaterThan(tag.name.length + 10);
    const pkg = JSON.parse(
      readFileSync(new URL("../../packages/auth-core/package.json", import.meta.url), "utf8"),
    );
    expect((document.info as { license: object }).license).toEqual({
      name: pkg.license,
      identifier: pkg.license,
    });
  });

  it("documents the wait headers of a 429 as they are sent", async () => {
    const headers = response("/api/auth/sign-in/email", "post", "429").headers!;
    expect(Object.keys(headers)).toEqual(["X-Retry-After", "Retry-After"]);
    // The rate limiter's answer carries both, with one value.
    const limited = await startLiveServer({ rateLimit: { enabled: true, window: 60, max: 1 } });
    try {
      let answer: Response | undefined;
      for (let i = 0; i < 3 && answer?.status !== 429; i++)
        answer = await fetch(`${limited.origin}/api/auth/ok`);
      expect(answer!.status).toBe(429);
      expect(answer!.headers.get("x-retry-after")).toMatch(/^\d+$/);
      expect(answer!.headers.get("retry-after")).toBe(answer!.headers.get("x-retry-after"));
    } finally {
      await limited.close();
    }
  });

  it("documents Set-Cookie on the answers of sign-up, sign-in and the provider callback, which send it", async () => {
    for (const [path, method, status] of [
      ["/api/auth/sign-up/email", "post", "200"],
      ["/api/auth/sign-in/email", "post", "200"],
      ["/api/auth/callback/{id}", "get", "302"],
      ["/api/auth/sign-out", "post", "200"],
    ] as const)
      expect(Object.keys(response(path, method, status).headers ?? {}), path).toContain("Set-Cookie");
    expect(response("/api/auth/get-session", "get", "200").headers).toBeUndefined();
    const signUp = await fetch(`${live.origin}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: live.origin },
      body: JSON.stringify({
        name: "Cookie",
        email: "cookie@example.com",
        password: "correct horse battery",
      }),
    });
    expect(signUp.status).toBe(200);
    expect(signUp.headers.getSetCookie().length).toBeGreaterThan(0);
  });
});

describe("serving the document and the reference page", () => {
  for (const path of ["/api/auth/openapi.json", "/api/auth/reference"]) {
    it(`answers HEAD ${path} with GET's status and headers and no body, on the server and through auth.handler`, async () => {
      const get = await rawRequest("GET", path);
      const head = await rawRequest("HEAD", path);
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
      const { date: _getDate, ...getHeaders } = get.headers;
      const { date: _headDate, ...headHeaders } = head.headers;
      expect(headHeaders).toEqual(getHeaders);
      expect(Number(head.headers["content-length"])).toBe(get.body.length);
      const viaHandler = await live.server.auth.handler(
        new Request(`${live.origin}${path}`, { method: "HEAD" }),
      );
      expect(viaHandler.status).toBe(200);
      expect(viaHandler.headers.get("content-type")).toBe(get.headers["content-type"]);
      expect(viaHandler.headers.get("content-length")).toBe(String(get.body.length));
      expect(await viaHandler.text()).toBe("");
    });

    it(`compresses ${path} when asked (br, then gzip), and says it varies with Accept-Encoding`, async () => {
      const plain = await rawRequest("GET", path);
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(plain.headers.vary).toMatch(/^Accept-Encoding\b/);
      const gzip = await rawRequest("GET", path, { "accept-encoding": "gzip" });
      expect(gzip.headers["content-encoding"]).toBe("gzip");
      expect(gzip.headers.vary).toMatch(/^Accept-Encoding\b/);
      expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
      expect(gzip.body.length).toBeLessThan(plain.body.length / 5);
      const br = await rawRequest("GET", path, { "accept-encoding": "gzip, deflate, br" });
      expect(br.headers["content-encoding"]).toBe("br");
      expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
      const refused = await rawRequest("GET", path, { "accept-encoding": "br;q=0, gzip;q=0" });
      expect(refused.headers["content-encoding"]).toBeUndefined();
      expect(refused.body.equals(plain.body)).toBe(true);
      const head = await rawRequest("HEAD", path, { "accept-encoding": "gzip" });
      expect(head.headers["content-encoding"]).toBe("gzip");
      expect(Number(head.headers["content-length"])).toBe(gzip.body.length);
    });
  }
});
