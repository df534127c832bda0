import type { AuthContext } from "../context.ts";
import { isCausedByDatabaseOutage } from "../db/connect.ts";
import { AuthError, isAuthError } from "../errors/auth-error.ts";
import {
  createEncodedBody,
  createOpenApiDocument,
  negotiateContentCoding,
  REFERENCE_PAGE_CSP,
  renderReferencePage,
} from "../openapi/index.ts";
import type { CallerResolvers } from "./caller.ts";
import { compileTrustedProxies, resolveClientIp } from "./client-ip.ts";
import { type CorsOptions, withCors } from "./cors.ts";
import { assertBeforeDeadline, deadlineOf, withinRequestTimeout } from "./deadline.ts";
import type { AnyEndpoint } from "./define-endpoint.ts";
import { type EndpointOutcome, headersOfFailure } from "./endpoint-outcome.ts";
import type { MaybePromise } from "./maybe-promise.ts";
import { ORGANIZATION_HEADER } from "./organization-header.ts";
import { hitRateLimit, type RateLimiter, ruleForPath } from "./rate-limit.ts";
import { readRequestBody } from "./read-body.ts";
import { createRouter } from "./router.ts";
import { answerFromCookieCache, type EndpointInput, runEndpoint } from "./run-endpoint.ts";
import { servedErrorCodes } from "./served-errors.ts";

interface HandlerOptions {
  /** The socket's remote address, given by the server that received the request. */
  remoteAddress?: string | null;
  /**
   * Answer CORS preflights and add CORS headers for trusted origins (http/cors.ts): for pages on
   * another origin calling this handler with cookies. Same-origin apps do not need it. @default false
   */
  cors?: boolean;
}

export type AuthHandler = (request: Request, options?: HandlerOptions) => Promise<Response>;

/**
 * A request as the engine reads it, whatever carried it. `auth.handler` makes one from a Fetch
 * Request; the standalone server makes one straight from node:http (server/node-bridge.ts), which
 * spares a Request and a Response per call. Both then run the same engine below.
 */
export interface EngineRequest {
  method: string;
  /**
   * The URL's pathname, as `new URL` gives it on the server's origin (never built from the client's
   * Host header); the standalone server skips the parse when the target is already in that form.
   */
  pathname: string;
  /** The URL's query without its "?" ("" when there is none). */
  query: string;
  headers: Headers;
  remoteAddress: string | null;
  /** The parsed body, read under the byte cap (http/read-body.ts). Called for non-GET routes only. */
  readBody(maxBytes: number, acceptsForm: boolean): Promise<unknown>;
}

/** The engine's answer, for a transport to write. */
export interface EngineResponse {
  status: number;
  /** Response headers by lower-case name, Set-Cookie apart. */
  headers: Record<string, string>;
  /** One line per cookie: joining several into one header would break them. */
  setCookies: string[];
  /** Null when there is no content (HEAD, redirects); bytes when compressed (the API document). */
  body: string | Uint8Array | null;
}

/**
 * Answers at once when nothing had to be waited for (http/maybe-promise.ts): the cookie-cache branch,
 * and what routing alone answers (404, 405, the API documents).
 */
export type Engine = (request: EngineRequest) => MaybePromise<EngineResponse>;

/**
 * On every answer, whatever its kind (docs/security.md, "Responses that carry or follow a token"):
 * many of them carry a token (sign-in, api-key/create) or answer a URL that carries one (mailed
 * links, the provider callback), so none may be stored by a cache, and none may hand its URL on in
 * a Referer — a page the redirect lands on, or its images, would otherwise learn the token. Applied
 * to all rather than to a list of endpoints, so a new token-bearing endpoint cannot forget them.
 */
export const TOKEN_SAFE_HEADERS = {
  "cache-control": "no-store",
  "referrer-policy": "no-referrer",
  // docs/security.md "Response headers": no answer may be sniffed into another type (a JSON error
  // echoing input rendered as HTML); on every answer, like the two above.
  "x-content-type-options": "nosniff",
};
const JSON_HEADERS = { "content-type": "application/json; charset=utf-8", ...TOKEN_SAFE_HEADERS };

/** A JSON answer of the engine; `extra` headers (Set-Cookie included) are merged in. */
export function jsonReply(status: number, data: unknown, extra?: Headers | null): EngineResponse {
  return jsonTextReply(status, JSON.stringify(data), extra);
}

/**
 * JSON_HEADERS as a fresh object literal: an object copied by spread and then given another header
 * (CORS adds Vary) was ~0.8 µs slower to build and enumerate than a literal, per request.
 */
function jsonHeaders(): Record<string, string> {
  return {
    "content-type": "application/json; charset=utf-8",
    "cache-control": TOKEN_SAFE_HEADERS["cache-control"],
    "referrer-policy": TOKEN_SAFE_HEADERS["referrer-policy"],
    "x-content-type-options": TOKEN_SAFE_HEADERS["x-content-type-options"],
  };
}

function jsonTextReply(status: number, body: string, extra?: Headers | null): EngineResponse {
  const headers = jsonHeaders();
  const reply: EngineResponse = { status, headers, setCookies: [], body };
  if (extra) {
    mergeHeaders(reply, extra);
    Object.assign(headers, JSON_HEADERS);
  }
  return reply;
}

function mergeHeaders(reply: EngineResponse, headers: Headers): void {
  for (const [name, value] of headers) {
    if (name === "set-cookie") reply.setCookies.push(value);
    else reply.headers[name] = value;
  }
}

/** A Fetch Response for an engine answer (the `auth.handler` side). */
function toFetchResponse(reply: EngineResponse): Response {
  const headers = new Headers(reply.headers);
  for (const line of reply.setCookies) headers.append("set-cookie", line);
  return new Response(reply.body as BodyInit | null, { status: reply.status, headers });
}

/**
 * Maps any failure to an answer; internals of unexpected errors are logged, never sent. An outage
 * is 503 whatever wrapped it (matrix N1: a client can retry later, nothing was half-done on purpose).
 */
function errorReply(auth: AuthContext, error: unknown): EngineResponse {
  const headers = headersOfFailure(error);
  if (isCausedByDatabaseOutage(error)) {
    auth.options.logger.error("database unavailable", error);
    return jsonReply(503, new AuthError("SERVICE_UNAVAILABLE").toJSON(), headers);
  }
  if (isAuthError(error)) {
    if (error.status >= 500) auth.options.logger.error(`${error.code}: ${error.message}`, error.cause);
    return jsonReply(error.status, error.toJSON(), headers);
  }
  auth.options.logger.error("unexpected error", error);
  return jsonReply(500, new AuthError("INTERNAL_SERVER_ERROR").toJSON(), headers);
}

function outcomeToReply(outcome: EndpointOutcome): EngineResponse {
  if (outcome.kind === "json") {
    // A handler that already holds its JSON text (serializedJson) is not serialised again.
    const body = outcome.json ?? JSON.stringify(outcome.data);
    const reply = jsonTextReply(outcome.status, body, outcome.extraHeaders);
    for (const line of outcome.setCookies) reply.setCookies.push(line);
    return reply;
  }
  const reply: EngineResponse = {
    status: outcome.status,
    headers: {},
    setCookies: [],
    body: outcome.kind === "html" ? outcome.html : null,
  };
  if (outcome.extraHeaders) mergeHeaders(reply, outcome.extraHeaders);
  Object.assign(reply.headers, TOKEN_SAFE_HEADERS);
  for (const line of outcome.setCookies) reply.setCookies.push(line);
  return reply;
}

function methodNotAllowed(allow: readonly string[]): EngineResponse {
  const methods = allow.includes("GET") && !allow.includes("HEAD") ? [...allow, "HEAD"] : [...allow];
  const reply = jsonReply(405, new AuthError("METHOD_NOT_ALLOWED").toJSON());
  reply.headers.allow = methods.join(", ");
  return reply;
}

/** Where a handler made by `createHandler` keeps its engine (a property, not module state). */
const ENGINE = Symbol("tessera.engine");

/** The engine behind an `auth.handler`, for transports that skip the Fetch objects (undefined for a function `createHandler` did not make). */
export function engineOf(handler: AuthHandler): Engine | undefined {
  return (handler as AuthHandler & { [ENGINE]?: Engine })[ENGINE];
}

/**
 * A protocol served under a path of its own, outside the endpoint contracts: its own methods, media
 * type, credentials and error format (SCIM 2.0, RFC 7644: PUT/PATCH/DELETE, bearer tokens, SCIM
 * errors). Handed in by create-auth.ts, so http/ still knows no feature.
 */
export interface MountedProtocol {
  /** Under the base path, e.g. `/scim/v2`: that path and everything below it. */
  prefix: string;
  /** `path`: below the prefix ("" or "/Users/…"). Failures it throws are answered as the engine's. */
  serve(request: EngineRequest, path: string, ip: string | null): Promise<EngineResponse>;
}

/** The one HTTP entry: `Request → Response` for everything under the base path. */
export function createHandler(
  auth: AuthContext,
  endpoints: readonly AnyEndpoint[],
  rateLimiter: RateLimiter,
  callers: CallerResolvers,
  mounts: readonly MountedProtocol[] = [],
): AuthHandler {
  const engine = createEngine(auth, endpoints, rateLimiter, callers, mounts);
  const corsEngine = withCors(engine, corsOptionsOf(auth));
  const handler: AuthHandler & { [ENGINE]?: Engine } = async (request, options) => {
    const url = new URL(request.url);
    const reply = await (options?.cors ? corsEngine : engine)({
      method: request.method,
      pathname: url.pathname,
      query: url.search.slice(1),
      headers: request.headers,
      remoteAddress: options?.remoteAddress ?? null,
      readBody: (maxBytes, acceptsForm) => readRequestBody(request, maxBytes, acceptsForm),
    });
    return toFetchResponse(reply);
  };
  handler[ENGINE] = engine;
  return handler;
}

/**
 * Who gets CORS headers: the trusted origins; which request headers a page may send (the API-key
 * header, and the organization header of a client with `organizationId`).
 */
export function corsOptionsOf(auth: AuthContext): CorsOptions {
  return {
    isTrustedOrigin: (origin) => auth.origins.isTrustedOrigin(origin),
    allowedHeaders: ["content-type", auth.options.apiKey.header, ORGANIZATION_HEADER],
  };
}

function createEngine(
  auth: AuthContext,
  endpoints: readonly AnyEndpoint[],
  rateLimiter: RateLimiter,
  callers: CallerResolvers,
  mounts: readonly MountedProtocol[],
): Engine {
  const route = createRouter(endpoints.filter((endpoint) => endpoint.auth !== "server-only"));
  const { basePath } = auth.options;
  const { requestTimeoutMs, trustedProxies, ipAddressHeader } = auth.options.advanced;
  const proxies = compileTrustedProxies(trustedProxies);
  let warnedNoAddress = false;
  let docs: DocumentationReplies | null = null;
  /**
   * GET /openapi.json and /reference (docs/client.md "OpenAPI"), generated on first request;
   * compressed when the client accepts it (300 KB of JSON is ~20 KB in gzip).
   */
  const apiDocs = (path: string, headers: Headers): EngineResponse => {
    docs ??= documentationReplies(auth, endpoints);
    const doc = path === "/openapi.json" ? docs.document : docs.page;
    const coding = negotiateContentCoding(headers.get("accept-encoding"));
    const reply: EngineResponse = {
      status: 200,
      headers: { ...doc.headers, vary: "Accept-Encoding" },
      setCookies: [],
      body: doc.body(coding),
    };
    if (coding) reply.headers["content-encoding"] = coding;
    return reply;
  };
  return (request) => {
    const deadlineMs = deadlineOf(requestTimeoutMs);
    const mounted = serveMounted(request);
    if (mounted) return mounted;
    let routed: RouteCall | EngineResponse;
    try {
      routed = routeRequest(request, deadlineMs);
    } catch (error) {
      return answerHead(request, errorReply(auth, error));
    }
    if (!("endpoint" in routed)) return answerHead(request, routed);
    // The one synchronous branch: a read the cookie cache answers (get-session's hot case, run-endpoint.ts).
    const cached = isRateLimited(routed.endpoint)
      ? null
      : answerFromCookieCache(auth, callers, routed.endpoint, routed.method, endpointInput(routed, {}));
    if (cached) return answerHead(request, outcomeToReply(cached));
    return serveInTime(routed);
  };

  /** A mounted protocol's answer, or null when the path is not under one. */
  function serveMounted(request: EngineRequest): Promise<EngineResponse> | null {
    for (const mount of mounts) {
      const prefix = `${basePath}${mount.prefix}`;
      if (request.pathname !== prefix && !request.pathname.startsWith(`${prefix}/`)) continue;
      const ip = resolveClientIp(request.remoteAddress, request.headers, proxies, ipAddressHeader);
      const work = mount.serve(request, request.pathname.slice(prefix.length), ip);
      return withinRequestTimeout(work, requestTimeoutMs).then(
        (reply) => answerHead(request, reply),
        (error: unknown) => answerHead(request, errorReply(auth, error)),
      );
    }
    return null;
  }

  /** The route's call, or the reply routing alone gives (404 and 405 thrown, the API documents). */
  function routeRequest(request: EngineRequest, deadlineMs: number): RouteCall | EngineResponse {
    const { pathname } = request;
    if (pathname !== basePath && !pathname.startsWith(`${basePath}/`)) throw new AuthError("NOT_FOUND");
    const path = pathname.slice(basePath.length) || "/";
    const method = request.method === "HEAD" ? "GET" : request.method;
    if (method === "GET" && (path === "/openapi.json" || path === "/reference"))
      return apiDocs(path, request.headers);
    const lookup = route(method, path);
    if (lookup.kind === "not-found") throw new AuthError("NOT_FOUND");
    if (lookup.kind === "method-not-allowed") return methodNotAllowed(lookup.allow);
    const { endpoint, params } = lookup.match;
    const ip = resolveClientIp(request.remoteAddress, request.headers, proxies, ipAddressHeader);
    return { request, endpoint, params, method, ip, deadlineMs };
  }

  /** Whether a request to this endpoint counts against a rate limit (and so must wait for it). */
  function isRateLimited(endpoint: AnyEndpoint): boolean {
    return auth.options.rateLimit.enabled && ruleForPath(endpoint.path, auth.options.rateLimit) !== null;
  }

  /** Any failure becomes its reply here; past `advanced.requestTimeoutMs` the reply is 503. */
  async function serveInTime(call: RouteCall): Promise<EngineResponse> {
    try {
      return answerHead(call.request, await withinRequestTimeout(serveEndpoint(call), requestTimeoutMs));
    } catch (error) {
      return answerHead(call.request, errorReply(auth, error));
    }
  }

  async function serveEndpoint(call: RouteCall): Promise<EngineResponse> {
    const { request, endpoint, ip, deadlineMs } = call;
    if (auth.options.rateLimit.enabled) {
      if (ip === null && !warnedNoAddress) {
        warnedNoAddress = true;
        auth.options.logger.warn(proxies.anyPeer ? NO_FORWARDED_HEADER_WARNING : NO_CLIENT_ADDRESS_WARNING);
      }
      // Keyed on the route, not the raw path: `/reset-password/<token>` is one bucket, not one per token.
      const limited = await checkRateLimit(auth, rateLimiter, ip, endpoint.path, deadlineMs);
      if (limited) return limited;
    }
    const body =
      call.method === "GET"
        ? {}
        : await request.readBody(auth.options.advanced.maxBodyBytes, endpoint.acceptsForm === true);
    // A limiter claim or a slow body upload may have outlived the caller: its endpoint is not started.
    assertBeforeDeadline(deadlineMs);
    const input = endpointInput(call, body);
    return outcomeToReply(await runEndpoint(auth, callers, endpoint, call.method, input));
  }
}

/** What the endpoint is given of a routed request. */
function endpointInput(call: RouteCall, body: unknown): EndpointInput {
  const { request } = call;
  return {
    body,
    query: request.query === "" ? {} : Object.fromEntries(new URLSearchParams(request.query)),
    params: call.params,
    headers: request.headers,
    ip: call.ip,
    isServerCall: false,
    deadlineMs: call.deadlineMs,
  };
}

/** A routed request on its way to its endpoint. */
interface RouteCall {
  request: EngineRequest;
  endpoint: AnyEndpoint;
  params: Record<string, string>;
  method: string;
  ip: string | null;
  deadlineMs: number;
}

/**
 * RFC 9110 §9.3.2: HEAD answers like GET — same status and headers, Content-Length included (§8.6) —
 * without the content.
 */
function answerHead(request: EngineRequest, reply: EngineResponse): EngineResponse {
  if (request.method !== "HEAD" || reply.body === null) return reply;
  const length = typeof reply.body === "string" ? Buffer.byteLength(reply.body) : reply.body.byteLength;
  reply.headers["content-length"] = String(length);
  reply.body = null;
  return reply;
}

/** A documentation reply: its headers, and its body in the coding asked for. */
interface DocumentationReply {
  headers: Record<string, string>;
  body: ReturnType<typeof createEncodedBody>;
}

interface DocumentationReplies {
  document: DocumentationReply;
  page: DocumentationReply;
}

/** The OpenAPI document of the served endpoints and its reference page. */
function documentationReplies(auth: AuthContext, endpoints: readonly AnyEndpoint[]): DocumentationReplies {
  const byContract = new Map(endpoints.map((endpoint) => [endpoint.contract, endpoint]));
  const { enableSessionForAPIKeys } = auth.options.apiKey;
  const document = createOpenApiDocument({
    contracts: endpoints.map((endpoint) => endpoint.contract),
    extraErrors: (contract) => {
      const endpoint = byContract.get(contract);
      return endpoint ? servedErrorCodes(endpoint, enableSessionForAPIKeys) : [];
    },
    // features/api-key/session-bridge.ts assertApiKeyCallerAllowed: never fresh, refused by sensitive endpoints.
    acceptsApiKey: (contract) =>
      enableSessionForAPIKeys && contract.auth !== "fresh-session" && !byContract.get(contract)?.sensitive,
    basePath: auth.options.basePath,
    origin: new URL(auth.apiURL).origin,
    sessionCookie: auth.cookies.sessionToken,
    // Named like the session cookies (features/two-factor/cookies.ts; http/ knows no feature).
    twoFactorCookie: auth.cookies.sessionToken.replace(/session_token$/, "two_factor"),
    apiKeyHeader: auth.options.apiKey.header,
    title: `${auth.options.appName} API`,
  });
  return {
    document: { headers: jsonHeaders(), body: createEncodedBody(JSON.stringify(document)) },
    page: {
      headers: {
        "content-type": "text/html; charset=utf-8",
        // The page needs nothing from anywhere: its own inline style, and its one inline script by hash.
        "content-security-policy": REFERENCE_PAGE_CSP,
        ...TOKEN_SAFE_HEADERS,
      },
      body: createEncodedBody(renderReferencePage(document)),
    },
  };
}

/**
 * Said once per instance: without a client address every caller shares one rate-limit bucket, so
 * one client can use up sign-in for all (the limits fail closed, not open).
 */
const NO_CLIENT_ADDRESS_WARNING =
  "tessera: a request reached auth.handler without a client address, so all such requests share one " +
  "rate-limit bucket. Pass auth.handler(request, { remoteAddress }) with the socket address, or set " +
  'advanced.trustedProxies (["*"] when the platform\'s proxy sets advanced.ipAddressHeader).';

const NO_FORWARDED_HEADER_WARNING =
  "tessera: a request reached auth.handler without a client address and without the " +
  'advanced.ipAddressHeader header that trustedProxies ["*"] relies on, so all such requests share ' +
  "one rate-limit bucket. Check the header your platform sets.";

async function checkRateLimit(
  auth: AuthContext,
  limiter: RateLimiter,
  ip: string | null,
  path: string,
  deadlineMs: number,
): Promise<EngineResponse | null> {
  const retryAfterSeconds = await hitRateLimit(auth, limiter, ip, path, deadlineMs);
  if (retryAfterSeconds === null) return null;
  const reply = jsonReply(429, new AuthError("TOO_MANY_REQUESTS").toJSON());
  // RFC 9110 §10.2.3 Retry-After for generic HTTP clients and gateways; X-Retry-After for the client.
  reply.headers["retry-after"] = String(retryAfterSeconds);
  reply.headers["x-retry-after"] = String(retryAfterSeconds);
  return reply;
}
