import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey, createTestAuth, signedIn } from "#test/api-key.ts";
import { TEST_ORIGIN } from "#test/test-auth.ts";
import { contracts } from "../../packages/auth-core/src/contracts/index.ts";
import type { OpenApiDocument } from "../../packages/auth-core/src/openapi/document.ts";
import { type LiveServer, startLiveServer } from "./live-server.ts";
import { sampleOf } from "./openapi-samples.ts";

/**
 * The document's `security` says what HTTP requires: a gateway or generated client that trusts it
 * must not send an anonymous call to an endpoint that answers 401, nor demand a cookie an endpoint
 * does not need. Every operation is called without credentials, with an input the document says
 * is valid (so the call reaches the credential check rather than stopping at validation).
 */
let live: LiveServer;
let document: OpenApiDocument;
beforeAll(async () => {
  live = await startLiveServer({
    organization: { teams: { enabled: true } },
    user: { deleteUser: { enabled: true } },
  });
  document = (await (await fetch(`${live.origin}/api/auth/openapi.json`)).json()) as OpenApiDocument;
});
afterAll(async () => {
  await live?.close();
});

/**
 * Bodies whose validity hangs on a refinement JSON Schema cannot state (one of two fields, a
 * non-empty map): the sample is completed here.
 */
const REFINED_BODIES: Record<string, object> = {
  "/api/auth/admin/revoke-user-session": { sessionId: "a".repeat(24) },
  "/api/auth/admin/has-permission": { permissions: { user: ["list"] } },
  "/api/auth/organization/has-permission": { permissions: { member: ["create"] } },
};

/** The answers that mean "no credentials" (a 401 about a token in the input is not one). */
const CREDENTIAL_CODES = new Set(["UNAUTHORIZED", "INVALID_TWO_FACTOR_COOKIE"]);

const isAnonymous = (security: Record<string, string[]>[]) =>
  security.length === 0 || security.some((entry) => Object.keys(entry).length === 0);

async function callWithoutCredentials(
  path: string,
  method: string,
  operation: OpenApiDocument["paths"][string][string],
) {
  const url = new URL(live.origin + path.replace(/\{\w+\}/g, "x"));
  for (const parameter of operation.parameters ?? [])
    if (parameter.in === "query" && parameter.required)
      url.searchParams.set(
        parameter.name,
        String(sampleOf(document as never, parameter.schema, parameter.name)),
      );
  const body = (operation.requestBody?.content as Record<string, { schema: object }> | undefined)?.[
    "application/json"
  ]?.schema;
  const response = await fetch(url, {
    method: method.toUpperCase(),
    redirect: "manual",
    headers: method === "post" ? { "content-type": "application/json", origin: live.origin } : {},
    body:
      method === "post"
        ? JSON.stringify({
            ...(body ? (sampleOf(document as never, body as never) as object) : {}),
            ...REFINED_BODIES[path],
          })
        : undefined,
  });
  const text = await response.text();
  return {
    status: response.status,
    code: text.startsWith("{") ? (JSON.parse(text) as { code?: string }).code : undefined,
  };
}

describe("security per operation", () => {
  it("follows the contract's auth level and what HTTP asks beyond it", () => {
    for (const contract of contracts) {
      if (contract.auth === "server-only") continue;
      const path = `/api/auth${contract.path.replace(/:(\w+)/g, "{$1}")}`;
      const method = (
        typeof contract.method === "string" ? contract.method : contract.method[0]!
      ).toLowerCase();
      const security = document.paths[path]![method]!.security;
      const schemes = security.flatMap((entry) => Object.keys(entry));
      const credentials =
        contract.httpCredentials ??
        (contract.auth === "session" || contract.auth === "fresh-session" ? ["session"] : []);
      if (credentials.length > 0) expect(isAnonymous(security), contract.name).toBe(false);
      if (credentials.some((c) => c.startsWith("session")))
        expect(schemes, contract.name).toContain("sessionCookie");
      if (credentials.includes("two-factor-challenge"))
        expect(schemes, contract.name).toContain("twoFactorChallenge");
      if (credentials.length === 0 && contract.auth === "none") expect(security, contract.name).toEqual([]);
      if (credentials.length === 0 && contract.auth === "optional")
        expect(security[0], contract.name).toEqual({});
    }
  });

  it("matches what a call without credentials gets: 401 for want of them exactly where the document asks for them", async () => {
    const wrong: string[] = [];
    const unchecked: string[] = [];
    let calls = 0;
    for (const [path, methods] of Object.entries(document.paths))
      for (const [method, operation] of Object.entries(methods)) {
        const answer = await callWithoutCredentials(path, method, operation);
        calls++;
        if (answer.code === "VALIDATION_ERROR") unchecked.push(`${method} ${path}`);
        const anonymous = isAnonymous(operation.security);
        if (anonymous === CREDENTIAL_CODES.has(answer.code ?? ""))
          wrong.push(
            `${method} ${path}: ${anonymous ? "anonymous" : "needs credentials"}, answered ${answer.status} ${answer.code}`,
          );
      }
    expect(wrong).toEqual([]);
    expect(unchecked).toEqual([]);
    expect(calls).toBeGreaterThan(80);
  });
});

describe("the API-key scheme", () => {
  it("is named exactly where a key stands for a session: the others refuse a key caller", async () => {
    const t = await createTestAuth({
      organization: { teams: { enabled: true } },
      apiKey: { enableSessionForAPIKeys: true },
    });
    try {
      const doc = (await (
        await t.auth.handler(new Request(`${TEST_ORIGIN}/api/auth/openapi.json`))
      ).json()) as OpenApiDocument;
      const header = (doc.components as { securitySchemes: { apiKey: { name: string } } }).securitySchemes
        .apiKey.name;
      const { userId } = await signedIn(t);
      const { key } = await createKey(t, { userId, rateLimitEnabled: false });
      const wrong: string[] = [];
      let named = 0;
      for (const [path, methods] of Object.entries(doc.paths))
        for (const [method, operation] of Object.entries(methods)) {
          const schemes = operation.security.flatMap((entry) => Object.keys(entry));
          // Sign-out and deletion would end the key's user; their refusal is checked in features/api-key.
          if (!schemes.includes("sessionCookie") || /sign-out|delete-user|revoke-sessions/.test(path))
            continue;
          const body = (operation.requestBody?.content as Record<string, { schema: object }> | undefined)?.[
            "application/json"
          ]?.schema;
          const url = new URL(TEST_ORIGIN + path.replace(/\{\w+\}/g, "x"));
          for (const parameter of operation.parameters ?? [])
            if (parameter.in === "query" && parameter.required)
              url.searchParams.set(
                parameter.name,
                String(sampleOf(doc as never, parameter.schema, parameter.name)),
              );
          const response = await t.auth.handler(
            new Request(url, {
              method: method.toUpperCase(),
              headers: {
                [header]: key,
                ...(method === "post" ? { "content-type": "application/json", origin: TEST_ORIGIN } : {}),
              },
              body:
                method === "post"
                  ? JSON.stringify({
                      ...(body ? (sampleOf(doc as never, body as never) as object) : {}),
                      ...REFINED_BODIES[path],
                    })
                  : undefined,
            }),
          );
          const code = response.headers.get("content-type")?.includes("json")
            ? ((await response.json()) as { code?: string } | null)?.code
            : undefined;
          const refused =
            code === "NOT_AUTHORIZED" || code === "SESSION_NOT_FRESH" || code === "UNAUTHORIZED";
          if (schemes.includes("apiKey")) named++;
          if (schemes.includes("apiKey") === refused)
            wrong.push(
              `${method} ${path}: ${schemes.includes("apiKey") ? "names" : "omits"} apiKey, answered ${response.status} ${code}`,
            );
        }
      expect(wrong).toEqual([]);
      expect(named).toBeGreaterThan(10);
    } finally {
      await t.close();
    }
  });
});
