import { createHash } from "node:crypto";
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contracts } from "../../packages/auth-core/src/contracts/index.ts";
import { ERROR_CATALOGUE } from "../../packages/auth-core/src/errors/catalogue.ts";
import type { OpenApiDocument } from "../../packages/auth-core/src/openapi/document.ts";
import { type LiveServer, startLiveServer } from "./live-server.ts";
import { createConformanceChecker } from "./openapi-conformance.ts";

/**
 * GET /api/auth/openapi.json and /api/auth/reference on the live standalone server: the document is
 * valid OpenAPI 3.1 by a real validator, describes every HTTP endpoint of the contracts, and answers
 * conform to it; the reference page needs no network.
 */
let live: LiveServer;
let document: OpenApiDocument;
beforeAll(async () => {
  live = await startLiveServer({ organization: { teams: { enabled: true } } });
  document = (await (await fetch(`${live.origin}/api/auth/openapi.json`)).json()) as OpenApiDocument;
});
afterAll(async () => {
  await live?.close();
});

const httpContracts = contracts.filter((contract) => contract.auth !== "server-only");
const operations = () =>
  Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  );

describe("the OpenAPI document", () => {
  it("is valid OpenAPI 3.1", async () => {
    const result = await new Validator().validate(document as Parameters<Validator["validate"]>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe("3.1.0");
  });

  it("has one operation per endpoint and method, with its tags, summary and auth", () => {
    const expected = httpContracts.flatMap((c) =>
      typeof c.method === "string" ? [c.method] : [...c.method],
    );
    expect(operations()).toHaveLength(expected.length);
    for (const contract of httpContracts) {
      const path = `/api/auth${contract.path.replace(/:(\w+)/g, "{$1}")}`;
      const method = (
        typeof contract.method === "string" ? contract.method : contract.method[0]!
      ).toLowerCase();
      const operation = document.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(operation).toMatchObject({
        operationId: contract.name,
        summary: contract.summary,
        tags: contract.tags,
      });
      // openapi-security.test.ts checks each operation's security against real calls.
      const schemes = operation!.security.flatMap((entry) => Object.keys(entry));
      if (contract.auth === "session" || contract.auth === "fresh-session")
        expect(schemes).toEqual(["sessionCookie"]);
    }
  });

  it("lists each endpoint's catalogue errors with their status, code and message", () => {
    const operation = document.paths["/api/auth/sign-in/email"]!.post!;
    const examples = (operation.responses["401"]!.content as Record<string, { examples: object }>)[
      "application/json"
    ]!.examples;
    expect(examples).toMatchObject({
      INVALID_EMAIL_OR_PASSWORD: {
        value: {
          code: "INVALID_EMAIL_OR_PASSWORD",
          message: ERROR_CATALOGUE.INVALID_EMAIL_OR_PASSWORD.message,
        },
      },
    });
    for (const contract of httpContracts) {
      const path = `/api/auth${contract.path.replace(/:(\w+)/g, "{$1}")}`;
      const method = (
        typeof contract.method === "string" ? contract.method : contract.method[0]!
      ).toLowerCase();
      const responses = document.paths[path]![method]!.responses;
      for (const code of contract.errors) {
        const media = (responses[String(ERROR_CATALOGUE[code].status)]?.content ?? {}) as Record<
          string,
          { examples: Record<string, unknown> }
        >;
        expect(Object.keys(media["application/json"]?.examples ?? {}), `${contract.name} ${code}`).toContain(
          code,
        );
      }
    }
  });

  it("adds the codes an endpoint answers from how it is served: mapped field errors, the impersonation refusal, untrusted callback URLs", () => {
    const served = live.server.auth.endpoints.filter((endpoint) => endpoint.auth !== "server-only");
    let checked = 0;
    for (const endpoint of served) {
      const codes = [
        ...Object.values(endpoint.fieldErrors ?? {}),
        ...(endpoint.highRisk ? ["NOT_ALLOWED_WHILE_IMPERSONATING" as const] : []),
        ...([endpoint.body, endpoint.query].some(
          (schema) => "callbackURL" in ((schema as { shape?: object })?.shape ?? {}),
        )
          ? ["INVALID_CALLBACK_URL" as const]
          : []),
      ];
      const path = `/api/auth${endpoint.path.replace(/:(\w+)/g, "{$1}")}`;
      const method = (
        typeof endpoint.method === "string" ? endpoint.method : endpoint.method[0]!
      ).toLowerCase();
      const documented = JSON.stringify(document.paths[path]![method]!.responses);
      for (const code of codes) {
        expect(documented, `${endpoint.name} ${code}`).toContain(`"${code}":{"value"`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it("describes dates as date-time strings, as they travel", () => {
    const schema = JSON.stringify((document.components as { schemas: object }).schemas);
    expect(schema).toContain('"expiresAt":{"type":"string","format":"date-time"}');
  });

  it("answers conform to it: a sign-up, a session read, an error", async () => {
    const check = createConformanceChecker(document as never);
    const signUp = await fetch(`${live.origin}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: live.origin },
      body: JSON.stringify({ name: "Ada", email: "ada@example.com", password: "correct horse battery" }),
    });
    const cookie = signUp.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .join("; ");
    const session = await fetch(`${live.origin}/api/auth/get-session`, { headers: { cookie } });
    const wrong = await fetch(`${live.origin}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: live.origin },
      body: JSON.stringify({ email: "ada@example.com", password: "wrong password" }),
    });
    const problems = [
      ...check({ method: "POST", path: "/sign-up/email", status: signUp.status, body: await signUp.json() }),
      ...check({ method: "GET", path: "/get-session", status: session.status, body: await session.json() }),
      ...check({ method: "POST", path: "/sign-in/email", status: wrong.status, body: await wrong.json() }),
    ];
    expect(problems).toEqual([]);
    expect(check({ method: "GET", path: "/get-session", status: 200, body: { session: 1 } })).toHaveLength(1);
  });
});

describe("the reference page", () => {
  it("lists every operation and model, and loads nothing from anywhere: one inline script, allowed by its hash", async () => {
    const response = await fetch(`${live.origin}/api/auth/reference`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await response.text();
    const scripts = [...html.matchAll(/<script>([^<]*)<\/script>/g)].map((match) => match[1]!);
    expect(scripts).toHaveLength(1);
    const hash = createHash("sha256").update(scripts[0]!).digest("base64");
    expect(response.headers.get("content-security-policy")).toBe(
      `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${hash}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    );
    for (const { operation } of operations()) expect(html).toContain(`id="${operation.operationId}"`);
    for (const name of Object.keys((document.components as { schemas: object }).schemas))
      expect(html).toContain(`id="model-${name}"`);
    expect(html.match(/<script/gi)).toHaveLength(1);
    expect(html).not.toMatch(/<link|<img|<iframe|\ssrc=|url\(/i);
    expect(html.match(/href="[^"#]*"/g)).toEqual(['href="openapi.json"']);
  });
});
