import type { SessionAndUser } from "../contracts/models.ts";
import type { Auth } from "../create-auth.ts";
import { isAuthError } from "../errors/index.ts";
import { createOperatorApi } from "../operator.ts";
import { refusal } from "./responses.ts";
import { safeRedirect } from "./safe-redirect.ts";

/** The auth instance, or a function giving it (the app's `getAuth`, sync or async). */
export type AuthSource = Auth | (() => Auth | Promise<Auth>);

export function resolveAuth(source: AuthSource): Promise<Auth> {
  return Promise.resolve(typeof source === "function" ? source() : source);
}

/** Permissions as the core's permission checks take them: `{ resource: ["action", …] }`. */
export type Permissions = Record<string, string[]>;

/** What a page may hand to the browser: the session without its token. */
export type ClientSession = Omit<SessionAndUser, "session"> & {
  session: Omit<SessionAndUser["session"], "token">;
};

/** The session and user without the session token, for a loader's data (never send the token). */
export function sessionForClient(data: SessionAndUser): ClientSession;
export function sessionForClient(data: SessionAndUser | null): ClientSession | null;
export function sessionForClient(data: SessionAndUser | null): ClientSession | null {
  if (!data) return null;
  const { token: _token, ...session } = data.session;
  return { session, user: data.user };
}

/**
 * Only the cookie goes along with a permission read: the request's own Origin, Referer and Fetch
 * Metadata name the page that led here — another site for a followed link — and the core's Origin
 * rule for state-changing calls (has-permission is a POST) would refuse the read.
 */
function cookieOnly(request: Request): Headers {
  return new Headers({ cookie: request.headers.get("cookie") ?? "" });
}

/** The path and query of the request: where sign-in brings the user back to (never another site). */
function returnPathOf(request: Request): string {
  const url = new URL(request.url);
  return safeRedirect(url.pathname + url.search);
}

export interface SessionHelperOptions {
  /** Where a signed-out visitor is sent by requireSession; `redirectTo` carries the return path. @default "/sign-in" */
  signInPath?: string;
  /** Where requireAnonymous sends a signed-in visitor. @default "/" */
  signedInPath?: string;
}

export function createSessionHelpers(source: AuthSource, options: SessionHelperOptions = {}) {
  const signInPath = options.signInPath ?? "/sign-in";
  const signedInPath = options.signedInPath ?? "/";
  // The operator API (all endpoints' methods) made once per auth, not on every requireRole.
  const operators = new WeakMap<object, ReturnType<typeof createOperatorApi>>();
  const operatorOf = (auth: Parameters<typeof createOperatorApi>[0]) => {
    const known = operators.get(auth);
    if (known) return known;
    const api = createOperatorApi(auth, "remix-require-role");
    operators.set(auth, api);
    return api;
  };

  /**
   * The signed-in caller's session and user, or null (one get-session call). `fresh`: read from the
   * database even when the cookie cache (session.cookieCache) could answer — for access decisions,
   * so a revoked session is refused at once rather than when its cache expires.
   */
  async function getSession(
    request: Request,
    options: { fresh?: boolean } = {},
  ): Promise<SessionAndUser | null> {
    const auth = await resolveAuth(source);
    const query = options.fresh ? { disableCookieCache: true } : {};
    const { data } = await auth.api.getSession({ headers: request.headers, query });
    return data;
  }

  /** The thrown redirect to sign-in that comes back to this page (or `redirectTo`) afterwards. */
  function toSignIn(request: Request, redirectTo?: string): Response {
    const back = redirectTo ?? returnPathOf(request);
    const target = `${signInPath}?redirectTo=${encodeURIComponent(back)}`;
    return new Response(null, { status: 302, headers: { Location: target } });
  }

  /** The session, or a redirect to sign-in (thrown) that comes back to this page afterwards. */
  async function requireSession(
    request: Request,
    options: { redirectTo?: string; fresh?: boolean } = {},
  ): Promise<SessionAndUser> {
    const data = await getSession(request, options);
    if (data) return data;
    throw toSignIn(request, options.redirectTo);
  }

  /** For sign-in and sign-up pages: a signed-in visitor is sent on (thrown redirect). */
  async function requireAnonymous(request: Request, redirect: { redirectTo?: string } = {}): Promise<void> {
    if (!(await getSession(request))) return;
    throw new Response(null, { status: 302, headers: { Location: redirect.redirectTo ?? signedInPath } });
  }

  /**
   * The session of a caller whose admin roles grant every one of `permissions` (admin.*'s
   * access control, e.g. `{ user: ["list"] }`); a signed-out caller goes to sign-in, anyone else
   * gets a thrown 403.
   */
  async function requirePermission(request: Request, permissions: Permissions): Promise<SessionAndUser> {
    const data = await requireSession(request, { fresh: true });
    const auth = await resolveAuth(source);
    const check = await auth.api
      .userHasPermission({ body: { permissions }, headers: cookieOnly(request) })
      .catch((error: unknown) => {
        // The session ended between the two reads: to sign-in, as if it had ended before.
        if (isAuthError(error) && error.code === "UNAUTHORIZED") throw toSignIn(request);
        throw error;
      });
    if (!check.data.success) throw refusal(403, "Forbidden");
    return data;
  }

  /**
   * The session of a caller holding at least one of `roles` (admin-area roles, as set-role stores
   * them; a user without one holds the default role): a signed-out caller goes to sign-in, anyone
   * else gets a thrown 403. The role is read from the database on every call, like the core's own
   * checks — prefer requirePermission, which follows the role table.
   */
  async function requireRole(request: Request, roles: string | readonly string[]): Promise<SessionAndUser> {
    const data = await requireSession(request, { fresh: true });
    const auth = await resolveAuth(source);
    const { data: user } = await operatorOf(auth).getUser({
      query: { id: data.user.id },
    });
    if (user.banned) throw refusal(403, "Forbidden");
    const held = user.role.split(",").map((role) => role.trim());
    const wanted = typeof roles === "string" ? [roles] : roles;
    if (!wanted.some((role) => held.includes(role))) throw refusal(403, "Forbidden");
    return data;
  }

  /**
   * The session of a member whose roles in the organization (`organizationId`, else the session's
   * active one) grant every one of `permissions`; a non-member or a member without them gets a
   * thrown 403, a signed-out caller goes to sign-in.
   */
  async function requireOrganizationPermission(
    request: Request,
    check: { permissions: Permissions; organizationId?: string },
  ): Promise<SessionAndUser> {
    const data = await requireSession(request, { fresh: true });
    const auth = await resolveAuth(source);
    try {
      const result = await auth.api.hasPermission({
        body: {
          permissions: check.permissions,
          ...(check.organizationId ? { organizationId: check.organizationId } : {}),
        },
        headers: cookieOnly(request),
      });
      if (result.data.success) return data;
    } catch (error) {
      // NO_ACTIVE_ORGANIZATION, NOT_A_MEMBER_OF_ORGANIZATION: the same refusal as a missing permission.
      if (!isAuthError(error)) throw error;
    }
    throw refusal(403, "Forbidden");
  }

  return {
    getSession,
    requireSession,
    requireAnonymous,
    requireRole,
    requirePermission,
    requireOrganizationPermission,
  };
}
