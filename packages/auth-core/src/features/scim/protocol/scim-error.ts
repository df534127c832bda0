import type { EngineResponse } from "../../../http/handler.ts";

/** RFC 7644 §8.1: what SCIM answers carry, requests may also send application/json. */
const SCIM_MEDIA_TYPE = "application/scim+json";
const ERROR_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:Error";

/** RFC 7644 §3.12 Table 9, the detail error keywords this service provider answers. */
export type ScimType =
  | "invalidFilter"
  | "invalidSyntax"
  | "invalidPath"
  | "invalidValue"
  | "uniqueness"
  | "noTarget"
  | "mutability"
  | "tooMany";

/**
 * An expected refusal of a SCIM request, answered in the RFC 7644 §3.12 error schema — not the
 * catalogue's `{ code, message }`: SCIM clients (Entra ID, Okta) read `status`, `scimType` and `detail`.
 */
export class ScimError extends Error {
  override name = "ScimError";
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly scimType: ScimType | null = null,
  ) {
    super(detail);
  }
}

/** Headers of every SCIM answer: its media type, and never stored by a cache (an answer names people). */
const SCIM_HEADERS = {
  "content-type": `${SCIM_MEDIA_TYPE}; charset=utf-8`,
  "cache-control": "no-store",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
};

export function scimReply(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): EngineResponse {
  return {
    status,
    headers: { ...SCIM_HEADERS, ...headers },
    setCookies: [],
    body: body === null ? null : JSON.stringify(body),
  };
}

/** `status` is a string in the error schema (RFC 7644 §3.12). */
export function scimErrorReply(error: ScimError): EngineResponse {
  const body = {
    schemas: [ERROR_SCHEMA],
    status: String(error.status),
    ...(error.scimType ? { scimType: error.scimType } : {}),
    detail: error.detail,
  };
  // RFC 6750 §3: a refused bearer token says which scheme to use.
  const headers: Record<string, string> =
    error.status === 401 ? { "www-authenticate": 'Bearer realm="SCIM"' } : {};
  return scimReply(error.status, body, headers);
}
