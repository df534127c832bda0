import type { AuthContext } from "../context.ts";
import { AuthError } from "../errors/auth-error.ts";
import type { ErrorCode } from "../errors/catalogue.ts";

/** every callback-type field, in body or query, must be trusted or a safe relative path. */
const CALLBACK_FIELDS: ReadonlyArray<[string, ErrorCode]> = [
  ["callbackURL", "INVALID_CALLBACK_URL"],
  ["redirectTo", "INVALID_REDIRECT_URL"],
  ["errorCallbackURL", "INVALID_ERROR_CALLBACK_URL"],
  ["newUserCallbackURL", "INVALID_NEW_USER_CALLBACK_URL"],
];

/** The codes an endpoint with these input fields may answer for an untrusted callback (the OpenAPI document). */
export function callbackURLErrorCodes(fields: readonly string[]): ErrorCode[] {
  return CALLBACK_FIELDS.filter(([field]) => fields.includes(field)).map(([, code]) => code);
}

export function assertCallbackURLsTrusted(auth: AuthContext, ...sources: unknown[]): void {
  for (const source of sources) {
    if (typeof source !== "object" || source === null || isEmptyObject(source)) continue;
    for (const [field, code] of CALLBACK_FIELDS) {
      const value = (source as Record<string, unknown>)[field];
      if (value === undefined || value === null) continue;
      if (typeof value !== "string" || !auth.origins.isAllowedCallbackURL(value)) throw new AuthError(code);
    }
  }
}

/** No field at all (a GET's body, a request without a query): nothing to look up. */
export function isEmptyObject(value: object): boolean {
  for (const _ in value) return false;
  return true;
}
