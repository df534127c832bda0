import { type CeremonyError, ceremonyError, unsupported } from "./passkey-errors.ts";
import type {
  AddPasskeyOptions,
  Call,
  CeremonyState,
  PasskeySignInOptions,
  PasskeySignUpOptions,
  RegistrationAnswer,
  RegistrationCeremony,
  SignInAnswer,
  WebAuthnOutcome,
} from "./passkey-types.ts";
import type { CallOptions } from "./types.ts";

/**
 * The three passkey ceremonies, loaded with @simplewebauthn/browser when a passkey method first runs
 * (passkey.ts). Each: options from the server, the browser's prompt, the answer back; the answer's
 * call goes through the client's `call`, so the session store re-reads after it as after any sign-in.
 */

type Browser = typeof import("@simplewebauthn/browser");

/** Options as the server wrote them, with the caller's extensions laid over (Better Auth does the same). */
function withExtensions<T extends { extensions?: Record<string, unknown> }>(
  options: T,
  extensions: Record<string, unknown> | undefined,
): T {
  return extensions ? { ...options, extensions: { ...options.extensions, ...extensions } } : options;
}

/** The browser's answer as the server takes it: clientExtensionResults travel only to the caller. */
function splitOutcome(response: { clientExtensionResults?: unknown }, keep: boolean) {
  const { clientExtensionResults, ...body } = response;
  const webauthn = keep
    ? { response: response as Record<string, unknown>, clientExtensionResults: clientExtensionResults ?? {} }
    : undefined;
  return { body, webauthn: webauthn as WebAuthnOutcome["webauthn"] };
}

function failed(error: CeremonyError): { data: null; error: CeremonyError } {
  return { data: null, error };
}

/** The options request of a ceremony: the caller's headers, signal, retries and error hook, nothing that follows success. */
function stepOptions(settings: CallOptions): CallOptions {
  const { headers, signal, retry, onError } = settings;
  return definedOnly({ headers, signal, retry, onError }) as CallOptions;
}

function definedOnly(values: Record<string, unknown>): Record<string, string> {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values))
    if (value !== undefined && value !== "") kept[key] = value;
  return kept as Record<string, string>;
}

/**
 * The browser's WebAuthn call. The library aborts a pending request (a waiting autofill) when another
 * starts, since browsers run one at a time: the replaced call resolves PASSKEY_ABORTED.
 */
async function runCeremony<T>(
  state: CeremonyState,
  browser: Browser,
  signal: AbortSignal | undefined,
  run: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; error: CeremonyError }> {
  const mine = {};
  const cancel = () => {
    if (state.current === mine) browser.WebAuthnAbortService.cancelCeremony();
  };
  signal?.addEventListener("abort", cancel, { once: true });
  try {
    state.current = mine;
    return { ok: true, value: await run() };
  } catch (error) {
    return { ok: false, error: ceremonyError(error) };
  } finally {
    signal?.removeEventListener("abort", cancel);
    if (state.current === mine) state.current = null;
  }
}

/**
 * Checked before the options request, so a browser without WebAuthn (or, for autofill, without
 * conditional UI) mints no challenge for nothing.
 */
async function canRun(browser: Browser, autoFill: boolean): Promise<boolean> {
  return autoFill ? browser.browserSupportsWebAuthnAutofill() : browser.browserSupportsWebAuthn();
}

export async function signIn(
  call: Call,
  state: CeremonyState,
  browser: Browser,
  options: PasskeySignInOptions = {},
  callOptions?: CallOptions,
): Promise<SignInAnswer & WebAuthnOutcome> {
  const settings = { ...options.fetchOptions, ...callOptions };
  const autoFill = options.autoFill === true;
  if (!(await canRun(browser, autoFill))) return failed(unsupported(autoFill)) as SignInAnswer;
  const path = "/passkey/generate-authenticate-options";
  const started = await call("GET", path, undefined, stepOptions(settings));
  if (started.error) return started as SignInAnswer;
  const answered = await runCeremony(state, browser, settings.signal, () =>
    browser.startAuthentication({
      optionsJSON: withExtensions(started.data as never, options.extensions),
      useBrowserAutofill: autoFill,
    }),
  );
  if (!answered.ok) return failed(answered.error) as SignInAnswer;
  const { body, webauthn } = splitOutcome(answered.value, options.returnWebAuthnResponse === true);
  const input = { response: body };
  const verified = (await call("POST", "/passkey/verify-authentication", input, settings)) as SignInAnswer;
  return webauthn ? { ...verified, webauthn } : verified;
}

async function register(
  call: Call,
  state: CeremonyState,
  browser: Browser,
  request: { query: Record<string, unknown>; name: string | undefined; createSession?: boolean },
  options: RegistrationCeremony,
  callOptions: CallOptions | undefined,
): Promise<RegistrationAnswer & WebAuthnOutcome> {
  const settings = { ...options.fetchOptions, ...callOptions };
  if (!(await canRun(browser, false))) return failed(unsupported()) as RegistrationAnswer;
  const query = definedOnly(request.query);
  const started = await call("GET", "/passkey/generate-register-options", query, stepOptions(settings));
  if (started.error) return started as RegistrationAnswer;
  const answered = await runCeremony(state, browser, settings.signal, () =>
    browser.startRegistration({
      optionsJSON: withExtensions(started.data as never, options.extensions),
      useAutoRegister: options.useAutoRegister === true,
    }),
  );
  if (!answered.ok) return failed(answered.error) as RegistrationAnswer;
  const { body, webauthn } = splitOutcome(answered.value, options.returnWebAuthnResponse === true);
  const input: Record<string, unknown> = { response: body };
  if (request.name) input.name = request.name;
  if (request.createSession) input.createSession = true;
  const verified = (await call(
    "POST",
    "/passkey/verify-registration",
    input,
    settings,
  )) as RegistrationAnswer;
  return webauthn ? { ...verified, webauthn } : verified;
}

export function addPasskey(
  call: Call,
  state: CeremonyState,
  browser: Browser,
  options: AddPasskeyOptions = {},
  callOptions?: CallOptions,
) {
  // Better Auth sends `name` twice: the account name the authenticator shows, and the passkey's label.
  const query = { authenticatorAttachment: options.authenticatorAttachment, name: options.name };
  const request = { query, name: options.name, createSession: options.createSession };
  return register(call, state, browser, request, options, callOptions);
}

export function signUp(
  call: Call,
  state: CeremonyState,
  browser: Browser,
  options: PasskeySignUpOptions,
  callOptions?: CallOptions,
) {
  const query = {
    authenticatorAttachment: options.authenticatorAttachment,
    email: options.email,
    displayName: options.name,
    callbackURL: options.callbackURL,
    language: options.language,
  };
  return register(call, state, browser, { query, name: options.passkeyName }, options, callOptions);
}
