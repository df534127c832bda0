import { z } from "zod";
import type { AuthContext } from "../../context.ts";
import {
  decryptString,
  encryptString,
  generateRandomString,
  signValue,
  unsignValue,
} from "../../crypto/index.ts";
import type { CookieJar } from "../../http/cookie-jar.ts";
import { consumeVerification, createVerification, findVerification } from "../verification/index.ts";
import {
  CODE_VERIFIER_ALPHABET,
  CODE_VERIFIER_LENGTH,
  STATE_LENGTH,
  STATE_LIFETIME_SECONDS,
} from "./rules.ts";
import { type StateRow, setStateFormPost } from "./store.ts";

/**
 * The OAuth state of one sign-in or link: a one-time verification
 * record `oauth-state:{state}` valid 10 minutes, deleted on use. Its value (PKCE verifier and where
 * to go next) is encrypted: the verifier is half of what redeems the authorization code.
 * The state is also bound to the browser that started the flow (ASVS 10.1.2/H4): a
 * signed cookie carries it, and a callback whose cookie does not carry the same state is refused.
 */
const stateDataSchema = z.object({
  providerId: z.string(),
  codeVerifier: z.string(),
  /** OIDC nonce sent in the authorization URL; null for flows started without one. */
  nonce: z.string().nullable(),
  callbackURL: z.string().nullable(),
  errorURL: z.string().nullable(),
  newUserURL: z.string().nullable(),
  requestSignUp: z.boolean(),
  /** Present for /link-social: the signed-in user the provider account is linked to. */
  link: z.object({ userId: z.string() }).nullable(),
  /** The `language` of /sign-in/social, for a user this flow creates; absent in older records. */
  language: z.string().nullable().default(null),
});
export type OAuthStateData = z.infer<typeof stateDataSchema>;

const STATE_IDENTIFIER_PREFIX = "oauth-state:";
/**
 * The signed cookie value is typed: a state cookie can never pass for a session cookie or the other
 * way round, though both are signed with the same secret.
 */
const STATE_COOKIE_DOMAIN = "oauth-state:";

function stateCookieName(auth: AuthContext): string {
  return `${auth.secureCookies ? "__Secure-" : ""}${auth.options.advanced.cookiePrefix}.oauth_state`;
}

export function generateCodeVerifier(): string {
  return generateRandomString(CODE_VERIFIER_LENGTH, CODE_VERIFIER_ALPHABET);
}

/** Stores the state record and sets the browser-binding cookie; returns the state. */
export async function createOAuthState(
  auth: AuthContext,
  jar: CookieJar,
  data: OAuthStateData,
): Promise<string> {
  const state = generateRandomString(STATE_LENGTH);
  const now = auth.now();
  const expiresAt = new Date(now.getTime() + STATE_LIFETIME_SECONDS * 1000);
  const sealed = encryptString(JSON.stringify(data), auth.options.secret);
  await createVerification(auth.collections, `${STATE_IDENTIFIER_PREFIX}${state}`, sealed, expiresAt, now);
  const cookie = signValue(`${STATE_COOKIE_DOMAIN}${state}`, auth.options.secret);
  jar.set(stateCookieName(auth), cookie, { maxAge: STATE_LIFETIME_SECONDS });
  return state;
}

/** What a provider posted to the callback (Apple's form_post), kept in the state record, not a URL. */
const formPostSchema = z.object({
  code: z.string().min(1).max(4096).optional(),
  user: z.string().max(4096).optional(),
});
export type FormPost = z.infer<typeof formPostSchema>;

export type StateCheck =
  | { ok: true; data: OAuthStateData; posted: FormPost | null }
  | { ok: false; reason: "mismatch" | "not_found" };

/**
 * Apple's form_post carries the code and, on the first consent, the `user` JSON (name, email). The
 * POST is turned into a GET (callback.ts) whose URL would put them in browser history, proxy and
 * server logs: they are kept instead, encrypted, on the live state record they belong to (at most
 * its 10 minutes, deleted with it). Only an existing, unexpired state can be written to, so a
 * stranger's POST stores nothing. False when there is no such state.
 */
export async function stashFormPost(auth: AuthContext, state: string, posted: FormPost): Promise<boolean> {
  const sealed = encryptString(JSON.stringify(posted), auth.options.secret);
  return setStateFormPost(auth.collections, `${STATE_IDENTIFIER_PREFIX}${state}`, sealed, auth.now());
}

function parseFormPost(sealed: string | undefined, secret: string): FormPost | null {
  const plain = sealed === undefined ? null : decryptString(sealed, secret);
  if (plain === null) return null;
  try {
    const parsed = formPostSchema.safeParse(JSON.parse(plain));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Consumes the state of a callback: exactly once (find, then the delete count decides — exact on
 * FerretDB too), and only from the browser holding its cookie. A callback without the matching
 * cookie is a mismatch while the record lives (another browser's flow, left for its owner) and
 * "not found" once it is gone or expired — the cookie dies with the record, so an expired flow
 * answers please_restart_the_process, not a mismatch. The cookie is cleared either way.
 */
export async function consumeOAuthState(
  auth: AuthContext,
  jar: CookieJar,
  state: string,
): Promise<StateCheck> {
  const name = stateCookieName(auth);
  const cookie = jar.get(name);
  if (cookie !== undefined) jar.delete(name);
  const signed = cookie === undefined ? null : unsignValue(cookie, auth.options.secret);
  const bound = signed?.startsWith(STATE_COOKIE_DOMAIN) ? signed.slice(STATE_COOKIE_DOMAIN.length) : null;
  const identifier = `${STATE_IDENTIFIER_PREFIX}${state}`;
  if (bound !== state) {
    const live = await findVerification(auth.collections, identifier, auth.now());
    return { ok: false, reason: live ? "mismatch" : "not_found" };
  }
  const row: StateRow | null = await consumeVerification(auth.collections, identifier, auth.now());
  if (!row) return { ok: false, reason: "not_found" };
  const data = parseStateData(row.value, auth.options.secret);
  if (!data) return { ok: false, reason: "not_found" };
  return { ok: true, data, posted: parseFormPost(row.formPost, auth.options.secret) };
}

function parseStateData(sealed: string, secret: string): OAuthStateData | null {
  const plain = decryptString(sealed, secret);
  if (plain === null) return null;
  try {
    const parsed = stateDataSchema.safeParse(JSON.parse(plain));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
