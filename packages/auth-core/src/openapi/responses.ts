import type { AnyContract } from "../contracts/contract.ts";
import { ERROR_CATALOGUE, type ErrorCode } from "../errors/catalogue.ts";
import type { JsonSchema } from "./json-schema.ts";

/** The responses of one operation, by status (OpenAPI's Responses Object). */
export type Responses = Record<string, Record<string, unknown>>;

/**
 * How long to wait, on 429 answers: the rate limiter, the two-factor code lock and the sign-in
 * lockout send both headers (http/handler.ts, features/two-factor/endpoints/guards.ts,
 * features/email-password/endpoints/sign-in-email.ts).
 */
const RETRY_HEADERS = {
  "X-Retry-After": {
    description: "Seconds to wait before trying again.",
    schema: { type: "integer", minimum: 0 },
  },
  "Retry-After": {
    description: "Seconds to wait before trying again (RFC 9110 §10.2.3); the same value as X-Retry-After.",
    schema: { type: "integer", minimum: 0 },
  },
};

/** The session cookies a sign-in sets (or clears), or the challenge cookie when a second factor is due. */
const SET_COOKIE_HEADER = {
  "Set-Cookie": {
    description:
      "The session cookies (HttpOnly), or the two-factor challenge cookie when a second factor is due; sign-out clears them.",
    schema: { type: "string" },
  },
};

/** The errors of one operation grouped by status: the shared error schema with one example per code. */
export function errorResponses(codes: readonly ErrorCode[]): Responses {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const { status } = ERROR_CATALOGUE[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Responses = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const examples = Object.fromEntries(
      list.map((code) => [code, { value: { code, message: ERROR_CATALOGUE[code].message } }]),
    );
    responses[String(status)] = {
      description: list.join(", "),
      ...(status === 429 ? { headers: RETRY_HEADERS } : {}),
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" }, examples } },
    };
  }
  return responses;
}

export function successResponses(contract: AnyContract, response: () => JsonSchema): Responses {
  const answers = contract.answers ?? "json";
  if (answers === "xml")
    return {
      "200": {
        description: "An XML document.",
        content: { "application/xml": { schema: { type: "string" } } },
      },
    };
  if (answers === "html" || answers === "html-or-redirect")
    return {
      "200": { description: "An HTML page.", content: { "text/html": { schema: { type: "string" } } } },
      ...(answers === "html-or-redirect" ? { "302": redirectResponse({}) } : {}),
    };
  const cookies = contract.setsSessionCookies ? { headers: SET_COOKIE_HEADER } : {};
  const responses: Responses = {
    "200": {
      description: "Success.",
      ...cookies,
      content: { "application/json": { schema: response() } },
    },
  };
  if (answers === "json-or-redirect") responses["302"] = redirectResponse(cookies.headers ?? {});
  return responses;
}

function redirectResponse(headers: Record<string, unknown>) {
  return {
    description: "A redirect to the URL the caller gave (or the provider's page).",
    headers: {
      Location: { description: "Where the browser goes next.", schema: { type: "string" } },
      ...headers,
    },
  };
}

/** The JSON of every error answer: `code` is one of the catalogue's, `issues` says which fields failed. */
export function errorSchema(): JsonSchema {
  return {
    type: "object",
    required: ["code", "message"],
    properties: {
      code: { type: "string", enum: Object.keys(ERROR_CATALOGUE) },
      message: { type: "string" },
      issues: {
        description: "VALIDATION_ERROR only: each field that failed, by its dotted path.",
        type: "array",
        items: {
          type: "object",
          required: ["path", "message"],
          properties: { path: { type: "string" }, message: { type: "string" } },
        },
      },
    },
    additionalProperties: true,
  };
}
