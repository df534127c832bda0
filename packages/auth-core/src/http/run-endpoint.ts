import type { AuthContext } from "../context.ts";
import { AuthError, isAuthError } from "../errors/auth-error.ts";
import { assertCallbackURLsTrusted } from "./callback-urls.ts";
import type { CallerResolvers, ReadSessionOptions, SessionWithUser } from "./caller.ts";
import { CookieJar } from "./cookie-jar.ts";
import type { CookieAttributes } from "./cookies.ts";
import type { AnyEndpoint, EndpointContext } from "./define-endpoint.ts";
import {
  assertResultMatchesContract,
  type EndpointOutcome,
  toHeaders,
  toOutcome,
} from "./endpoint-outcome.ts";
import { requestOrigin } from "./origins.ts";
import { isDocumentedError } from "./served-errors.ts";
import { assertUserURLsAllowed } from "./user-urls.ts";
import { validateInput } from "./validate-input.ts";

export interface EndpointInput {
  body: unknown;
  query: unknown;
  params: Record<string, string>;
  headers: Headers;
  ip: string | null;
  isServerCall: boolean;
  /** deadline.ts deadlineOf: past it the caller has been answered 503, so no new database work. */
  deadlineMs: number;
}

/**
 * a state-changing request that carries cookies must come from a trusted
 * origin. Over HTTP the Origin (or Referer) is required; a server call (auth.api) is trusted code
 * and is checked only when it forwards a browser's Origin. Without cookies (server to server) there
 * is nothing to forge — except when the browser itself declares the request cross-site (Fetch
 * Metadata), or the body is a form an endpoint reads (`acceptsForm`): any site can make a browser
 * post a form, and one without Fetch Metadata says nothing else about it. Then the Origin must be
 * trusted too, which blocks login CSRF (docs/security.md "Forged requests from other sites").
 */
function assertOriginTrusted(
  auth: AuthContext,
  method: string,
  input: EndpointInput,
  acceptsForm: boolean,
): void {
  if (method === "GET") return;
  const crossSite = input.headers.get("sec-fetch-site") === "cross-site";
  const mustName = crossSite || (acceptsForm && isFormPost(input.headers));
  if (!input.headers.has("cookie") && !mustName) return;
  const origin = requestOrigin(input.headers);
  if (origin === null && input.isServerCall && !mustName) return;
  if (origin === null || !auth.origins.isTrustedOrigin(origin)) throw new AuthError("INVALID_ORIGIN");
}

/** The body types an HTML form sends (text/plain is refused by every endpoint, read-body.ts). */
function isFormPost(headers: Headers): boolean {
  const type = (headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  return type === "application/x-www-form-urlencoded" || type === "multipart/form-data";
}

/** Who calls: the API-key caller when a key is sent, else the cookies' session, admitted by the endpoint's auth level. */
async function resolveCaller(
  auth: AuthContext,
  callers: CallerResolvers,
  endpoint: AnyEndpoint,
  method: string,
  input: EndpointInput,
  jar: CookieJar,
  query: unknown,
): Promise<SessionWithUser | null> {
  // `apiKey.enableSessionForAPIKeys` (the api-key feature's session bridge): the key header, when sent,
  // is the credential — never fresh, refused by sensitive endpoints. Server-only endpoints are the
  // app's own calls: a key header they forward is not their caller (and is not counted twice).
  if (endpoint.auth !== "server-only") {
    // Refused before the key is read: reading it counts a use and a rate-limit hit, which a call
    // the endpoint refuses anyway must not spend.
    const { enableSessionForAPIKeys, header } = auth.options.apiKey;
    if (enableSessionForAPIKeys && input.headers.has(header)) callers.assertApiKeyCallerAllowed(endpoint);
    const viaKey = await callers.readApiKeySession(auth, input.headers, input.deadlineMs);
    if (viaKey) return viaKey;
  }
  const options = sessionReadOptions(endpoint, method, query);
  return admitCaller(auth, callers, endpoint, await callers.readSession(auth, jar, options));
}

/**
 * The cookie cache answers reads only (at most its maxAge stale). A state-changing call reads the
 * session row: otherwise a revoked or banned session could keep writing — and keep re-signing a
 * fresh cache for itself (update-user) — long after its cache should have run out. An endpoint may
 * ask for less (get-session's `disableCookieCache` and `disableRefresh`), never for more.
 */
function sessionReadOptions(endpoint: AnyEndpoint, method: string, query: unknown): ReadSessionOptions {
  const asked = endpoint.sessionRead?.(query);
  return {
    useCookieCache: method === "GET" && !endpoint.sensitive && asked?.useCookieCache !== false,
    disableRefresh: asked?.disableRefresh === true,
  };
}

function admitCaller(
  auth: AuthContext,
  callers: CallerResolvers,
  endpoint: AnyEndpoint,
  caller: SessionWithUser | null,
): SessionWithUser | null {
  if (endpoint.highRisk && caller?.session.impersonatedBy)
    throw new AuthError("NOT_ALLOWED_WHILE_IMPERSONATING");
  if (endpoint.auth === "optional" || endpoint.auth === "server-only") return caller;
  if (!caller) throw new AuthError("UNAUTHORIZED");
  if (
    endpoint.auth === "fresh-session" &&
    !callers.isSessionFresh(caller.session, auth.now(), auth.options.session.freshAge)
  ) {
    throw new AuthError("SESSION_NOT_FRESH");
  }
  return caller;
}

/**
 * Runs one endpoint for both entries (HTTP handler and server API): validation, origin and
 * callback checks, session resolution, then the handler. Errors reject the promise as AuthError (or
 * the raw external failure) — each entry turns them into its own form. Cookies set before a failure
 * are carried on the error so an expired session's clearing still reaches the client.
 */
export async function runEndpoint(
  auth: AuthContext,
  callers: CallerResolvers,
  endpoint: AnyEndpoint,
  method: string,
  input: EndpointInput,
): Promise<EndpointOutcome> {
  const run = new EndpointRun(auth, callers, endpoint, method, input);
  try {
    return await run.run();
  } catch (error) {
    throw run.failure(error);
  }
}

/**
 * The engine's one synchronous branch (handler.ts): the answer to a read whose caller the signed
 * cookie cache vouches for and whose endpoint answers such a caller at once (`answerCached`,
 * get-session) — no database command, no promise. Null whenever anything else applies (another
 * endpoint, no or an unusable cache, an API key sent, input the endpoint refuses): `runEndpoint`
 * then serves the request from the start, errors included, so this branch never answers an error.
 */
export function answerFromCookieCache(
  auth: AuthContext,
  callers: CallerResolvers,
  endpoint: AnyEndpoint,
  method: string,
  input: EndpointInput,
): EndpointOutcome | null {
  if (method !== "GET" || !endpoint.answerCached || endpoint.sensitive) return null;
  const { enableSessionForAPIKeys, header } = auth.options.apiKey;
  if (enableSessionForAPIKeys && input.headers.has(header)) return null;
  const run = new EndpointRun(auth, callers, endpoint, method, input);
  try {
    return run.answerCached();
  } catch {
    return null;
  }
}

/** The attributes of every cookie an endpoint sets, unless it says otherwise (the jar copies them). */
const COOKIE_DEFAULTS: CookieAttributes = Object.freeze({
  httpOnly: true,
  secure: false,
  sameSite: "Lax",
  path: "/",
});
const SECURE_COOKIE_DEFAULTS: CookieAttributes = Object.freeze({ ...COOKIE_DEFAULTS, secure: true });

/**
 * One endpoint call, and the context its handler gets: one object per call, with `setHeader` on the
 * prototype rather than a closure made per request.
 */
class EndpointRun implements EndpointContext<unknown, unknown> {
  readonly auth: AuthContext;
  /** Set by `start`, from the validated input, before the handler runs. */
  body: unknown = null;
  query: unknown = null;
  readonly params: Record<string, string>;
  readonly headers: Headers;
  readonly ip: string | null;
  session: SessionWithUser | null = null;
  readonly isServerCall: boolean;
  readonly deadlineMs: number;
  readonly cookies: CookieJar;
  readonly #callers: CallerResolvers;
  readonly #endpoint: AnyEndpoint;
  readonly #method: string;
  readonly #input: EndpointInput;
  // Headers.set validates at once (a CR/LF in a value throws here, not later in a transport).
  #extraHeaders: Headers | null = null;

  constructor(
    auth: AuthContext,
    callers: CallerResolvers,
    endpoint: AnyEndpoint,
    method: string,
    input: EndpointInput,
  ) {
    this.auth = auth;
    this.params = input.params;
    this.headers = input.headers;
    this.ip = input.ip;
    this.isServerCall = input.isServerCall;
    this.deadlineMs = input.deadlineMs;
    this.cookies = new CookieJar(
      input.headers.get("cookie"),
      auth.secureCookies ? SECURE_COOKIE_DEFAULTS : COOKIE_DEFAULTS,
    );
    this.#callers = callers;
    this.#endpoint = endpoint;
    this.#method = method;
    this.#input = input;
  }

  setHeader(name: string, value: string): void {
    this.#extraHeaders ??= new Headers();
    this.#extraHeaders.set(name, value);
  }

  async run(): Promise<EndpointOutcome> {
    const endpoint = this.#endpoint;
    this.#checkInput();
    if (endpoint.auth !== "none") {
      this.session = await resolveCaller(
        this.auth,
        this.#callers,
        endpoint,
        this.#method,
        this.#input,
        this.cookies,
        this.query,
      );
    }
    return this.#finish(await endpoint.handler(this));
  }

  /** answerFromCookieCache's run: throws or answers null wherever `run` would do anything else. */
  answerCached(): EndpointOutcome | null {
    const endpoint = this.#endpoint;
    this.#checkInput();
    if (!sessionReadOptions(endpoint, this.#method, this.query).useCookieCache) return null;
    const caller = this.#callers.readCachedSession(this.auth, this.cookies);
    if (!caller) return null;
    this.session = admitCaller(this.auth, this.#callers, endpoint, caller);
    return this.#finish(endpoint.answerCached!(this));
  }

  /** Origin, input schemas and the URLs the input carries: the same for every way of answering. */
  #checkInput(): void {
    const auth = this.auth;
    const endpoint = this.#endpoint;
    const method = this.#method;
    const input = this.#input;
    if (!endpoint.acceptsCrossSitePost)
      assertOriginTrusted(auth, method, input, endpoint.acceptsForm === true);
    this.query = validateInput(endpoint.query, input.query, endpoint.fieldErrors);
    this.body = method === "GET" ? {} : validateInput(endpoint.body, input.body, endpoint.fieldErrors);
    assertCallbackURLsTrusted(auth, this.body, this.query);
    assertUserURLsAllowed(auth, this.body);
  }

  #finish(result: unknown): EndpointOutcome {
    if (this.auth.options.advanced.checkResponses) assertResultMatchesContract(this.#endpoint, result);
    return toOutcome(result, this.cookies.setCookieLines(), this.#extraHeaders);
  }

  /** The error to throw for a failure: documented (checkResponses), carrying the cookies set so far. */
  failure(error: unknown): Error {
    const auth = this.auth;
    if (auth.options.advanced.checkResponses && !this.isServerCall)
      assertErrorDocumented(this.#endpoint, this.#method, error, auth.options.apiKey.enableSessionForAPIKeys);
    return Object.assign(error instanceof Error ? error : new Error(String(error)), {
      responseHeaders: toHeaders(this.cookies.setCookieLines(), this.#extraHeaders),
    });
  }
}

/**
 * `advanced.checkResponses`, for errors: an HTTP answer's catalogue code must be one the API
 * document lists for the endpoint (its contract's errors and how it is served, openapi/document.ts).
 */
function assertErrorDocumented(
  endpoint: AnyEndpoint,
  method: string,
  error: unknown,
  apiKeySessions: boolean,
): void {
  if (!isAuthError(error) || isDocumentedError(endpoint, method, error.code, apiKeySessions)) return;
  throw new Error(
    `endpoint ${endpoint.name} answered ${error.code}, which its contract's errors do not list`,
    { cause: error },
  );
}
