import type { z } from "zod";
import type { AuthContext } from "../context.ts";
import type { ErrorCode } from "../errors/catalogue.ts";
import type { SessionWithUser } from "../features/session/types.ts";
import type { CookieJar } from "./cookie-jar.ts";

/**
 * - none: no session is read;
 * - optional: the session is read when present;
 * - session: a session is required (401 otherwise);
 * - fresh-session: required and updated within the fresh age (403 "Session is not fresh");
 * - server-only: callable through `auth.api` only; over HTTP it does not exist (404).
 */
export type EndpointAuth = "none" | "optional" | "session" | "fresh-session" | "server-only";

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
}
export type EndpointResult = RedirectResult | HtmlResult;

export function redirectTo(location: string): RedirectResult {
  return { [ENDPOINT_RESULT]: true, kind: "redirect", location };
}
export function htmlPage(html: string, status = 200): HtmlResult {
  return { [ENDPOINT_RESULT]: true, kind: "html", status, html };
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
   * (security-matrix J5): actions whose effect outlives the impersonation or takes the account over.
   */
  highRisk?: boolean;
  /**
   * JSON data, or redirectTo(url) / htmlPage(html). `Result` is the whole declared return type,
   * redirects and pages included, so `auth.api` knows when `data` can be null (see http/api.ts).
   */
  handler(ctx: EndpointContext<z.output<Body>, z.output<Query>>): Promise<Result>;
}

/**
 * Identity function that keeps the body/query types flowing into the handler, and the `name` as a
 * literal type (the key of `auth.api`).
 */
export function defineEndpoint<
  const Name extends string,
  Body extends z.ZodType,
  Query extends z.ZodType,
  Result,
>(
  definition: EndpointDefinition<Body, Query, Result> & { name: Name },
): EndpointDefinition<Body, Query, Result> & { name: Name } {
  return definition;
}

export type AnyEndpoint = EndpointDefinition<z.ZodType, z.ZodType, unknown>;
