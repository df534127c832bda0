import type { PasskeySignUp } from "../contracts/passkey.ts";
import type { PasskeyMethods } from "./api.generated.ts";
import type { Method } from "./request.ts";
import type { CallOptions, ClientResult } from "./types.ts";

/** The passkey methods' types (passkey.ts makes the methods, passkey-ceremonies.ts runs them). */

export type Call = (
  verb: Method,
  path: string,
  input?: Record<string, unknown>,
  options?: CallOptions,
) => Promise<ClientResult<unknown>>;

type ResultOf<M extends (...args: never[]) => Promise<unknown>> = Awaited<ReturnType<M>>;

/** What the browser handed back, for `returnWebAuthnResponse` (Better Auth's option of the same name). */
export interface WebAuthnOutcome {
  webauthn?: { response: Record<string, unknown>; clientExtensionResults: Record<string, unknown> };
}

export interface PasskeySignInOptions {
  /**
   * Conditional UI: the browser offers the passkeys in the focused field whose `autocomplete` ends in
   * `webauthn` (`autocomplete="username webauthn"`), with no button press. The call stays pending
   * until the user picks one, another ceremony replaces it (error `PASSKEY_ABORTED`) or `signal`
   * aborts it. Where the browser has no conditional UI it answers `PASSKEY_NOT_SUPPORTED` at once,
   * without a request.
   */
  autoFill?: boolean;
  /** WebAuthn extensions, merged over the server's. */
  extensions?: Record<string, unknown>;
  /** Adds the browser's answer to the result as `webauthn`. */
  returnWebAuthnResponse?: boolean;
  fetchOptions?: CallOptions;
}

export interface RegistrationCeremony {
  authenticatorAttachment?: "platform" | "cross-platform";
  /** Conditional create: a passkey in the password manager the user just signed in with, with no prompt. */
  useAutoRegister?: boolean;
  extensions?: Record<string, unknown>;
  returnWebAuthnResponse?: boolean;
  fetchOptions?: CallOptions;
}

export interface AddPasskeyOptions extends RegistrationCeremony {
  /** The passkey's label in the account's list, also the account name the authenticator shows. */
  name?: string;
  /** Better Auth's option: a passkey-first sign-up signs in unless the address must be verified first. */
  createSession?: boolean;
}

export interface PasskeySignUpOptions extends RegistrationCeremony {
  /** The new account's address; it is verified by mail as for any sign-up. */
  email: string;
  /** The new user's name. @default "" */
  name?: string;
  /** Where the verification mail's link leads. */
  callbackURL?: string;
  /** The new user's language (the mails'). */
  language?: string;
  /** The passkey's label in the account's list. */
  passkeyName?: string;
}

export type SignInAnswer = ResultOf<PasskeyMethods["verifyAuthentication"]>;
export type RegistrationAnswer = ResultOf<PasskeyMethods["verifyRegistration"]>;

export type SignInPasskey = (
  options?: PasskeySignInOptions,
  callOptions?: CallOptions,
) => Promise<SignInAnswer & WebAuthnOutcome>;
export type AddPasskey = (
  options?: AddPasskeyOptions,
  callOptions?: CallOptions,
) => Promise<RegistrationAnswer & WebAuthnOutcome>;
export type SignUpPasskey = (
  options: PasskeySignUpOptions,
  callOptions?: CallOptions,
) => Promise<ClientResult<PasskeySignUp> & WebAuthnOutcome>;

export interface PasskeyCeremonies {
  signIn: SignInPasskey;
  addPasskey: AddPasskey;
  signUp: SignUpPasskey;
}

/**
 * The one WebAuthn request of this client in flight: the browser runs one at a time, and a caller's
 * `signal` cancels the ceremony it started, never one started since.
 */
export interface CeremonyState {
  current: object | null;
}
