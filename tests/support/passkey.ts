/**
 * The passkey tests' ceremonies over HTTP: a browser asks for options, its software authenticator
 * answers them, the browser posts the answer. Each step is also available alone, so a test can
 * change one thing (another browser, a late answer, a tampered response).
 */
import type { TestBrowser } from "./browser.ts";
import { type CeremonyOverrides, SoftwareAuthenticator } from "./software-authenticator.ts";

export { SoftwareAuthenticator } from "./software-authenticator.ts";

export const PASSKEY_CHALLENGE_COOKIE = "tessera.passkey";

export const PASSKEY_ERR = {
  CHALLENGE_NOT_FOUND: { code: "CHALLENGE_NOT_FOUND", message: "Challenge not found" },
  FAILED_REGISTRATION: { code: "FAILED_TO_VERIFY_REGISTRATION", message: "Failed to verify registration" },
  AUTHENTICATION_FAILED: { code: "AUTHENTICATION_FAILED", message: "Authentication failed" },
  ALREADY_REGISTERED: { code: "PASSKEY_ALREADY_REGISTERED", message: "This passkey is already registered" },
  NOT_FOUND: { code: "PASSKEY_NOT_FOUND", message: "Passkey not found" },
  SESSION_REQUIRED: {
    code: "SESSION_REQUIRED",
    message: "Passkey registration requires an authenticated session",
  },
  NOT_ALLOWED: {
    code: "YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY",
    message: "You are not allowed to register this passkey",
  },
  LAST_METHOD: {
    code: "CANNOT_REMOVE_LAST_SIGN_IN_METHOD",
    message:
      "You cannot remove your only way to sign in. Add a password, a social account or another passkey first.",
  },
} as const;

// biome-ignore lint/suspicious/noExplicitAny: WebAuthn options are JSON the authenticator reads loosely.
type Json = any;

/** GET generate-register-options (query: a sign-up's `email`, `displayName`…). */
export function registerOptions(browser: TestBrowser, query: Record<string, string> = {}) {
  const search = new URLSearchParams(query).toString();
  return browser.get<Json>(`/passkey/generate-register-options${search ? `?${search}` : ""}`);
}

/** The whole registration: options, the authenticator's answer, verify-registration. */
export async function registerPasskey(
  browser: TestBrowser,
  authenticator: SoftwareAuthenticator,
  options: { query?: Record<string, string>; name?: string; overrides?: CeremonyOverrides } = {},
) {
  const started = await registerOptions(browser, options.query);
  if (started.status !== 200) return started;
  const response = authenticator.createCredential(started.body, options.overrides);
  return browser.post<Json>("/passkey/verify-registration", {
    response,
    ...(options.name === undefined ? {} : { name: options.name }),
  });
}

export function authenticateOptions(browser: TestBrowser) {
  return browser.get<Json>("/passkey/generate-authenticate-options");
}

/** The whole sign-in: options, the authenticator's assertion, verify-authentication. */
export async function signInWithPasskey(
  browser: TestBrowser,
  authenticator: SoftwareAuthenticator,
  overrides: CeremonyOverrides = {},
) {
  const started = await authenticateOptions(browser);
  if (started.status !== 200) return started;
  return browser.post<Json>("/passkey/verify-authentication", {
    response: authenticator.getAssertion(started.body, overrides),
  });
}

/** A new authenticator of the given kind. */
export function newAuthenticator(options: ConstructorParameters<typeof SoftwareAuthenticator>[0] = {}) {
  return new SoftwareAuthenticator(options);
}
