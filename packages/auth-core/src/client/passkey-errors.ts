import type { ClientError } from "./types.ts";

/**
 * What a passkey ceremony that failed in the browser resolves to: the client's `{ status, code,
 * message }`, never a thrown DOMException (docs/client.md "Passkeys"). Status 0, as for a request
 * that got no answer: nothing reached the server. The one exception is an authenticator that already
 * holds a passkey of the account (WebAuthn's InvalidStateError for `excludeCredentials`): the
 * catalogue's PASSKEY_ALREADY_REGISTERED, as the server answers for the same case.
 */
export interface CeremonyError extends ClientError {
  /** For PASSKEY_FAILED: the library's WebAuthnError code or the DOMException's name. */
  reason?: string;
}

const CEREMONY_MESSAGES = {
  // NotAllowedError: the user closed the prompt, it timed out, or user verification failed —
  // WebAuthn §5.1.4.1 keeps the cause from the page on purpose.
  PASSKEY_CANCELLED: "The passkey request was cancelled or timed out",
  // AbortError: another passkey request replaced this one (the browser runs one at a time) or the
  // call's signal aborted it.
  PASSKEY_ABORTED: "The passkey request was replaced by another one or aborted",
  PASSKEY_NOT_SUPPORTED: "This browser does not support passkeys",
  PASSKEY_AUTOFILL_NOT_SUPPORTED: "This browser does not offer passkeys in form fields",
} as const;

export function unsupported(autoFill = false): CeremonyError {
  return {
    status: 0,
    code: "PASSKEY_NOT_SUPPORTED",
    message: autoFill
      ? CEREMONY_MESSAGES.PASSKEY_AUTOFILL_NOT_SUPPORTED
      : CEREMONY_MESSAGES.PASSKEY_NOT_SUPPORTED,
  };
}

/** A WebAuthnError of @simplewebauthn/browser (its `code`, `name` that of the DOMException) or a plain Error. */
export function ceremonyError(error: unknown): CeremonyError {
  const {
    name = "Error",
    code,
    message = String(error),
  } = error as {
    name?: string;
    code?: string;
    message?: string;
  };
  if (code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED")
    return { status: 400, code: "PASSKEY_ALREADY_REGISTERED", message: "This passkey is already registered" };
  if (code === "ERROR_CEREMONY_ABORTED" || name === "AbortError")
    return { status: 0, code: "PASSKEY_ABORTED", message: CEREMONY_MESSAGES.PASSKEY_ABORTED };
  if (name === "NotAllowedError")
    return { status: 0, code: "PASSKEY_CANCELLED", message: CEREMONY_MESSAGES.PASSKEY_CANCELLED };
  return { status: 0, code: "PASSKEY_FAILED", message, reason: code ?? name };
}
