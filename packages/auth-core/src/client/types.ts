import type { z } from "zod";
import type { AnyContract } from "../contracts/contract.ts";
import type { TwoFactorMethod } from "../contracts/two-factor.ts";
import type { ErrorCode } from "../errors/catalogue.ts";
import type { RoleTable } from "../features/organization/members/rules.ts";

/**
 * What a failed call resolves to. `code` and `message` are the catalogue's (the server's
 * `{ code, message }`); a request that got no answer has status 0 and code NETWORK_ERROR, an answer
 * that is not a catalogue error (a proxy's 502 page) keeps its status with code UNKNOWN_ERROR.
 * Extra fields the server sent with the error (a validation error's `fieldErrors`) are kept.
 */
export interface ClientError {
  status: number;
  code: ErrorCode | "NETWORK_ERROR" | "UNKNOWN_ERROR" | CeremonyErrorCode;
  message: string;
  [detail: string]: unknown;
}

/**
 * A passkey ceremony that failed in the browser, before anything reached the server (status 0):
 * the user cancelled or it timed out, another ceremony replaced it, the browser cannot do it, or
 * another failure (client/passkey-errors.ts, docs/client.md "Passkeys").
 */
export type CeremonyErrorCode =
  | "PASSKEY_CANCELLED"
  | "PASSKEY_ABORTED"
  | "PASSKEY_NOT_SUPPORTED"
  | "PASSKEY_FAILED";

/** Request headers, as `new Headers(…)` takes them. */
type HeaderValues = Headers | Record<string, string> | [string, string][];

/** Every call resolves to one of the two; an API error never throws. */
export type ClientResult<T> = { data: T; error: null } | { data: null; error: ClientError };

/** `delay` between attempts, fixed. `attempts` counts the retries after the first request. */
export interface LinearRetry {
  type: "linear";
  attempts: number;
  /** @default 1000 */
  delay?: number;
}

/** `min(maxDelay, baseDelay × 2^retry)` between attempts. */
export interface ExponentialRetry {
  type: "exponential";
  attempts: number;
  baseDelay: number;
  maxDelay: number;
}

export type RetryOptions = LinearRetry | ExponentialRetry;

/** A request about to be sent: hooks may change the URL or the init (headers included). */
export interface RequestContext {
  /** The endpoint path under the base path, e.g. `/sign-in/email`. */
  path: string;
  url: string;
  init: RequestInit & { headers: Headers };
}

export interface ResponseContext {
  request: RequestContext;
  response: Response;
}

export interface SuccessContext extends ResponseContext {
  data: unknown;
}

export interface ErrorContext {
  request: RequestContext;
  /** Null when no answer came (a network error). */
  response: Response | null;
  error: ClientError;
}

export interface FetchOptions {
  /** Sent with every request (per-call `headers` are added over them). */
  headers?: HeaderValues;
  onRequest?(context: RequestContext): void | Promise<void>;
  /** Every answer, before its body is read (each attempt when retrying). */
  onResponse?(context: ResponseContext): void | Promise<void>;
  onSuccess?(context: SuccessContext): void | Promise<void>;
  /** The final failure of a call (after retries). */
  onError?(context: ErrorContext): void | Promise<void>;
  /** Off unless set; see docs/client.md "Retries" for which failures are retried. */
  retry?: RetryOptions;
  /** @default globalThis.fetch */
  customFetchImpl?: typeof fetch;
}

export interface SessionRefetchOptions {
  /** Re-read the session when the page becomes visible or the window gets focus again. @default true */
  refetchOnWindowFocus?: boolean;
  /** The least time between two focus re-reads, in milliseconds. @default 5000 */
  focusCooldownMs?: number;
  /** Re-read the session when the browser comes back online. @default true */
  refetchWhenOnline?: boolean;
}

export interface AuthClientOptions {
  /** The server's origin, e.g. `https://auth.example.com`. @default the page's origin (relative URLs) */
  baseURL?: string;
  /** @default "/api/auth" */
  basePath?: string;
  fetchOptions?: FetchOptions;
  /** Called instead of setting a session when a sign-in needs the second factor. */
  onTwoFactorRedirect?(context: { twoFactorMethods: TwoFactorMethod[] }): void;
  /**
   * Follows an answer `{ url, redirect: true }` (a provider's page, a callbackURL).
   * @default assigning `window.location.href` in a browser; nothing elsewhere
   */
  navigate?(url: string): void;
  session?: SessionRefetchOptions;
  /**
   * The organization role table the server decides with, for `organization.checkRolePermission`:
   * `buildRoleTable(organization.roles, organization.creatorRole)` from `@tessera/auth-core/roles`
   * with the app's own roles. @default the default roles (owner, admin, member)
   */
  roles?: RoleTable;
  /**
   * The organization this client works in, instead of the session's active one: every request
   * names it in the `x-tessera-organization` header, so two clients (two tabs, two panes) work in two
   * organizations at once with one session. The server checks the caller's membership on each call
   * and refuses a foreign or unknown id (403); the session's active organization is left as it is
   * (docs/decisions.md "Active organization per request"). @default the session's active organization
   */
  organizationId?: string;
}

/** Per-call options, the second argument of every method. */
export interface CallOptions {
  /** Added over `fetchOptions.headers`; in a server (a loader), forward the browser's `cookie` here. */
  headers?: HeaderValues;
  /** Query parameters besides the input (e.g. the reset token of `resetPassword`). */
  query?: Record<string, string | number | boolean | undefined>;
  signal?: AbortSignal;
  /** Overrides `fetchOptions.retry` for this call; `false` turns retries off. */
  retry?: RetryOptions | false;
  /** `false`: do not follow a `{ url, redirect: true }` answer. @default true */
  navigate?: boolean;
  /** This call's success, after `fetchOptions.onSuccess`. */
  onSuccess?(context: SuccessContext): void | Promise<void>;
  /** This call's final failure (after retries), after `fetchOptions.onError`. */
  onError?(context: ErrorContext): void | Promise<void>;
}

/** `$fetch`'s options: a call's options plus the method and the body. */
export interface FetchCallOptions extends CallOptions {
  /** @default "POST" when a body is given, "GET" otherwise */
  method?: "GET" | "POST";
  /** The JSON body of a POST. */
  body?: Record<string, unknown>;
}

/** What a method accepts: the contract's body (POST) or query (GET), as zod reads it in. */
type BodyIn<C extends AnyContract> = z.input<NonNullable<C["body"]>>;
type QueryIn<C extends AnyContract> = z.input<NonNullable<C["query"]>>;
/** What a method resolves to: the contract's response, dates as `Date` (docs/client.md "Dates"). */
type Output<C extends AnyContract> = z.output<C["response"]>;

/** Input optional when every field is: `client.signOut()` needs no `{}`. */
type Call<In, Out> =
  Partial<In> extends In
    ? (input?: In, options?: CallOptions) => Promise<ClientResult<Out>>
    : (input: In, options?: CallOptions) => Promise<ClientResult<Out>>;

export type PostCall<C extends AnyContract> = Call<BodyIn<C>, Output<C>>;
export type GetCall<C extends AnyContract> = Call<QueryIn<C>, Output<C>>;

/** A store's value: the data of its last successful read, the error of the last failed one. */
export interface StoreState<T> {
  data: T | null;
  error: ClientError | null;
  /** True until the first read has answered. */
  isPending: boolean;
  /** True while a re-read is in flight after a first answer (the data shown is kept meanwhile). */
  isRefetching: boolean;
}

/** A value the client keeps in step with the server (the session, the active organization…). */
export interface AuthStore<T> {
  get(): StoreState<T>;
  /** Reads on the first subscription when nothing was read or hydrated yet. */
  subscribe(listener: () => void): () => void;
  /** Re-reads; calls made while a read is in flight share it. */
  refetch(): Promise<StoreState<T>>;
  /**
   * Seeds a value read elsewhere (the session a Remix loader read on the server) when nothing was
   * read yet, so the first render needs no request. Dates may be `Date`s or their ISO strings.
   */
  hydrate(data: T | null): void;
}
