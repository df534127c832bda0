import { API_KEY_CALLER_ERRORS } from "../contracts/api-key.ts";
import type { HttpMethod } from "../contracts/contract.ts";
import type { ErrorCode } from "../errors/catalogue.ts";
import { operationErrorCodes } from "../openapi/document.ts";
import { callbackURLErrorCodes } from "./callback-urls.ts";
import type { AnyEndpoint } from "./define-endpoint.ts";

/**
 * The codes an endpoint answers because of how it is served, beyond its contract's list: a field's
 * mapped validation code, an untrusted callback URL in a field that carries one, the impersonation
 * refusal of high-risk endpoints, and — where keys stand for sessions — an API key's refusals.
 */
export function servedErrorCodes(endpoint: AnyEndpoint, apiKeySessions: boolean): ErrorCode[] {
  const contract = endpoint.contract;
  const fields = [contract.body, contract.query].flatMap((schema) =>
    Object.keys((schema as { shape?: object } | undefined)?.shape ?? {}),
  );
  const codes: ErrorCode[] = Object.values(endpoint.fieldErrors ?? {}).filter((code) => code !== undefined);
  codes.push(...callbackURLErrorCodes(fields));
  if (endpoint.highRisk) codes.push("NOT_ALLOWED_WHILE_IMPERSONATING");
  if (apiKeySessions && endpoint.auth !== "none" && endpoint.auth !== "server-only") {
    codes.push(...API_KEY_CALLER_ERRORS);
    if (endpoint.sensitive) codes.push("NOT_AUTHORIZED");
  }
  return codes;
}

// Keyed by endpoint, then method and whether keys stand for sessions (an instance's option).
const documented = new WeakMap<AnyEndpoint, Map<string, ReadonlySet<ErrorCode>>>();

/** Whether the API document lists `code` for this endpoint and method (what HTTP clients are told). */
export function isDocumentedError(
  endpoint: AnyEndpoint,
  method: string,
  code: ErrorCode,
  apiKeySessions: boolean,
): boolean {
  let byMethod = documented.get(endpoint);
  if (!byMethod) {
    byMethod = new Map();
    documented.set(endpoint, byMethod);
  }
  const key = `${method} ${apiKeySessions}`;
  let codes = byMethod.get(key);
  if (!codes) {
    const served = servedErrorCodes(endpoint, apiKeySessions);
    codes = new Set(operationErrorCodes(endpoint.contract, method as HttpMethod, served));
    byMethod.set(key, codes);
  }
  return codes.has(code);
}
