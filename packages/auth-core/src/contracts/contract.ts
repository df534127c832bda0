import type { z } from "zod";
import type { ErrorCode } from "../errors/catalogue.ts";

/**
 * Who may call an endpoint:
 * - none: no session is read;
 * - optional: the session is read when present;
 * - session: a session is required (401 otherwise);
 * - fresh-session: required and updated within the fresh age (403 "Session is not fresh");
 * - server-only: callable through `auth.api` only; over HTTP it does not exist (404).
 */
export type EndpointAuth = "none" | "optional" | "session" | "fresh-session" | "server-only";

export type HttpMethod = "GET" | "POST";

/**
 * What a successful call answers besides its JSON `response`:
 * - json: JSON only (the default);
 * - json-or-redirect: JSON, or a 302 to a URL the caller gave (a `callbackURL`, a provider's page);
 * - html: an HTML page (the `/error` page);
 * - html-or-redirect: an HTML page, or a 302 (a mailed link: its confirmation page, or the app);
 * - xml: an XML document (the SAML service provider metadata).
 */
export type EndpointAnswer = "json" | "json-or-redirect" | "html" | "html-or-redirect" | "xml";

/**
 * An endpoint as data: everything a client, the router and the API documentation need to know,
 * and nothing of how it is served. Contract modules import only zod, the catalogue's types and other
 * contracts — never `mongodb`, `node:*` or a service — so a browser bundle can import them
 * (docs/architecture.md). The server pairs each with its handler (`http/define-endpoint.ts`).
 */
export interface EndpointContract<
  Name extends string = string,
  Body extends z.ZodType = z.ZodType,
  Query extends z.ZodType = z.ZodType,
  Response extends z.ZodType = z.ZodType,
  Answer extends EndpointAnswer = EndpointAnswer,
> {
  /** The `auth.api.<name>` and client method name, e.g. `signInEmail`. */
  name: Name;
  method: HttpMethod | readonly HttpMethod[];
  /** Under the base path; `:param` segments allowed, e.g. `/reset-password/:token`. */
  path: string;
  auth: EndpointAuth;
  /**
   * What an HTTP caller must present when HTTP asks more than `auth` (any one of them will do), for
   * the API document's security (openapi/document.ts). `auth` also governs `auth.api`, where server
   * code may name the user (`userId`) instead of a session, so such an endpoint is "optional" there
   * and needs a session over HTTP. "two-factor-challenge": the cookie of a sign-in waiting for its
   * second factor (docs/decisions/0014-two-factor.md "Two-factor"). "session-cookie": a session, and
   * an API key does not stand for one there (the endpoint writes to the session row). "sso-setup":
   * the cookie an opened SSO setup link sets (features/sso/setup-link.ts), never a session.
   */
  httpCredentials?: readonly ("session" | "session-cookie" | "two-factor-challenge" | "sso-setup")[];
  /** A successful call may answer Set-Cookie with the session's cookies (a sign-in, its end). */
  setsSessionCookies?: true;
  body?: Body;
  query?: Query;
  /** The JSON data of a successful call, as server code receives it (dates as `Date`). */
  response: Response;
  /** @default "json" */
  answers?: Answer;
  /** The catalogue codes this endpoint may answer besides the engine's own (400, 403, 429, 5xx). */
  errors: readonly ErrorCode[];
  /** One line for the documentation. */
  summary: string;
  /** What else a caller should know (docs/reference.md prints it under the summary). */
  notes?: string;
  tags: readonly string[];
  /**
   * The browser client's method, e.g. `"organization.inviteMember"`; by default the path's segments
   * in camelCase (`/two-factor/enable` → `twoFactor.enable`). `false`: no client method (a page, a
   * provider's return or a mailed link, reached by navigation). Server-only endpoints never have one.
   * `pnpm gen` writes the client's route table and method types from it.
   */
  client?: string | false;
}

/** Keeps the contract's literal name and schema types (the keys and signatures of `auth.api`). */
export function defineContract<
  const Name extends string,
  Response extends z.ZodType,
  Body extends z.ZodType = z.ZodType<Record<string, never>>,
  Query extends z.ZodType = z.ZodType<Record<string, never>>,
  const Answer extends EndpointAnswer = "json",
>(
  contract: EndpointContract<Name, Body, Query, Response, Answer>,
): EndpointContract<Name, Body, Query, Response, Answer> {
  return contract;
}

export type AnyContract = EndpointContract<string, z.ZodType, z.ZodType, z.ZodType, EndpointAnswer>;
