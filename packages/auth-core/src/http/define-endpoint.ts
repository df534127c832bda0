import type { z } from "zod";
import type { AuthContext } from "../context.ts";
import type { AnyContract, EndpointAnswer, EndpointAuth, EndpointContract } from "../contracts/contract.ts";
import type { ErrorCode } from "../errors/catalogue.ts";
import type { ReadSessionOptions, SessionWithUser } from "./caller.ts";
import type { CookieJar } from "./cookie-jar.ts";

export type { EndpointAuth } from "../contracts/contract.ts";

export interface EndpointContext<Body, Query> {
  auth: AuthContext;
  body: Body;
  query: Query;
  params: Record<string, string>;
  headers: Headers;
  ip: string | null;
  /** Present when `auth` is session/fresh-session (always) or optional (when signed in). */
  session: SessionWithUser | null;
  /** True for `auth.api.*` calls from server code, false for HTTP requests. */
  isServerCall: boolean;
  /** When the caller stops waiting (deadline.ts deadlineOf): work past it sends no new database commands. */
  deadlineMs: number;
  /** Request cookies in, Set-Cookie out. */
  cookies: CookieJar;
  setHeader(name: string, value: string): void;
}

/** Brands handler results that are not JSON data, so no JSON payload can be mistaken for one. */
export const ENDPOINT_RESULT = Symbol("tessera.endpoint-result");

export interface RedirectResult {
  [ENDPOINT_RESULT]: true;
  kind: "redirect";
  location: string;
}
export interface HtmlResult {
  [ENDPOINT_RESULT]: true;
  kind: "html";
  status: number;
  html: string;
  /** A document other than HTML (xmlDocument); text/html when absent. */
  contentType?: string;
}
export type EndpointResult = RedirectResult | HtmlResult;

export function redirectTo(location: string): RedirectResult {
  return { [ENDPOINT_RESULT]: true, kind: "redirect", location };
}
export function htmlPage(html: string, status = 200): HtmlResult {
  return { [ENDPOINT_RESULT]: true, kind: "html", status, html };
}
/** An XML document (an endpoint whose contract answers "xml"), sent as it is with its media type. */
export function xmlDocument(xml: string, contentType = "application/xml; charset=utf-8"): HtmlResult {
  return { [ENDPOINT_RESULT]: true, kind: "html", status: 200, html: xml, contentType };
}

export interface EndpointDefinition<
  Body extends z.ZodType = z.ZodType,
  Query extends z.ZodType = z.ZodType,
  Result = unknown,
> {
  /** The `auth.api.<name>` method name, e.g. `signInEmail`. */
  name: string;
  method: "GET" | "POST" | readonly ("GET" | "POST")[];
  /** Under the base path; `:param` segments allowed, e.g. `/reset-password/:token`. */
  path: string;
  auth: EndpointAuth;
  body?: Body;
  query?: Query;
  /** Maps a validation failure of a field to a catalogue error (e.g. email → INVALID_EMAIL). */
  fieldErrors?: Partial<Record<string, ErrorCode>>;
  /** Also accept application/x-www-form-urlencoded bodies (provider form_post callbacks). */
  acceptsForm?: boolean;
  /**
   * Skip the Origin check of state-changing requests: only for a provider's form_post callback,
   * which arrives cross-site by design and is defended by its one-time state bound to the browser.
   */
  acceptsCrossSitePost?: boolean;
  /** Read the session from the database even when a cookie cache is present. */
  sensitive?: boolean;
  /**
   * Refused to an admin's impersonation session with 403 NOT_ALLOWED_WHILE_IMPERSONATING
   * (docs/security.md): actions whose effect outlives the impersonation or takes the account over.
   */
  highRisk?: boolean;
  /**
   * JSON data, or redirectTo(url) / htmlPage(html). `Result` is the whole declared return type,
   * redirects and pages included, so `auth.api` knows when `data` can be null (see http/api.ts).
   */
  handler(ctx: EndpointContext<z.output<Body>, z.output<Query>>): Promise<Result>;
  /**
   * The answer when the signed cookie cache vouches for the caller (`ctx.session`), given at once:
   * the engine's one synchronous branch (run-endpoint.ts answerFromCookieCache) serves such a GET
   * with no database command and no promise. Only for an endpoint whose answer is that session
   * itself (get-session); it must answer what `handler` would for the same caller.
   */
  answerCached?(ctx: EndpointContext<z.output<Body>, z.output<Query>>): Result;
  /** Less than the engine's default session read, asked by the query (get-session's `disableCookieCache`). */
  sessionRead?(query: z.output<Query>): Partial<ReadSessionOptions>;
  /** The endpoint's contract (contracts/), which its responses must satisfy. */
  contract: AnyContract;
}

/** How an endpoint behaves on the server, beside its contract: the handler and the engine's flags. */
export type EndpointImplementation<Body extends z.ZodType, Query extends z.ZodType, Result> = Pick<
  EndpointDefinition<Body, Query, Result>,
  | "fieldErrors"
  | "acceptsForm"
  | "acceptsCrossSitePost"
  | "sensitive"
  | "highRisk"
  | "handler"
  | "answerCached"
  | "sessionRead"
>;

/** What a handler may return for a contract: its JSON response, and a redirect or a page where it says so. */
export type ContractResult<Response extends z.ZodType, Answer extends EndpointAnswer> =
  | z.output<Response>
  | (Answer extends "json-or-redirect" | "html-or-redirect" ? RedirectResult : never)
  | (Answer extends "html" | "html-or-redirect" | "xml" ? HtmlResult : never);

/**
 * Pairs a contract with its handler. The handler's input and result types come from the contract,
 * so `auth.api.<name>` is typed from it end to end.
 */
export function defineEndpoint<
  const Name extends string,
  Body extends z.ZodType,
  Query extends z.ZodType,
  Response extends z.ZodType,
  Answer extends EndpointAnswer,
>(
  contract: EndpointContract<Name, Body, Query, Response, Answer>,
  implementation: EndpointImplementation<Body, Query, ContractResult<Response, Answer>>,
): EndpointDefinition<Body, Query, ContractResult<Response, Answer>> & { name: Name };
export function defineEndpoint(
  contract: AnyContract,
  implementation: EndpointImplementation<z.ZodType, z.ZodType, unknown>,
): AnyEndpoint {
  return {
    name: contract.name,
    method: contract.method,
    path: contract.path,
    auth: contract.auth,
    ...(contract.body ? { body: contract.body } : {}),
    ...(contract.query ? { query: contract.query } : {}),
    ...implementation,
    contract,
  };
}

export type AnyEndpoint = EndpointDefinition<z.ZodType, z.ZodType, unknown>;
