import type { SessionAndUser } from "../contracts/models.ts";
import type { Passkey } from "../contracts/passkey.ts";
import type { AuthClient, AuthClientApi } from "./api.ts";
import { watchBrowserEvents } from "./browser-events.ts";
import { createPasskeyMethods } from "./passkey.ts";
import { createSend, type Method } from "./request.ts";
import { createRolePermissionCheck } from "./role-permission.ts";
import { ROUTES, type RouteTable, staleStoresAfter } from "./routes.ts";
import { type ClientStore, createStore } from "./store.ts";
import type { AuthClientOptions, CallOptions, ClientResult, FetchCallOptions } from "./types.ts";

/** After a session-changing call settles, its stores are re-read this much later (SPEC §7). */
const SIGNAL_DELAY_MS = 10;

/** Only a relative path or an http(s) URL is followed: a `javascript:` URL must never be assigned. */
function isNavigable(url: string): boolean {
  return /^https?:\/\//i.test(url) || (url.startsWith("/") && !url.startsWith("//"));
}

function defaultNavigate(url: string): void {
  if (typeof window !== "undefined") window.location.href = url;
}

/**
 * A client for the Tessera API (docs/client.md). Nothing touches `window` or `document` until a
 * call is made or a store is subscribed to, so it can be created at module scope of code that also
 * runs on a server.
 */
export function createAuthClient(options: AuthClientOptions = {}): AuthClient {
  const send = createSend(options);
  const navigate = options.navigate ?? defaultNavigate;

  let stopWatching = () => {};
  const session = createStore(() => get<SessionAndUser>("/get-session"), {
    onActive: () => {
      stopWatching = watchBrowserEvents(options.session ?? {}, () => void session.refetch());
    },
    onIdle: () => stopWatching(),
  });
  // Better Auth's listPasskeys atom: re-read after a passkey is added, renamed or deleted.
  const passkeys = createStore(readWhenSignedIn("/passkey/list-user-passkeys")) as ClientStore<Passkey[]>;
  const organizationStores: ClientStore<unknown>[] = [
    createStore(readWhenSignedIn("/organization/get-full-organization")),
    createStore(readWhenSignedIn("/organization/list")),
    createStore(readWhenSignedIn("/organization/get-active-member")),
    createStore(readWhenSignedIn("/organization/get-active-member-role")),
  ];

  /**
   * An organization store reads only for a signed-in caller: signed out, every organization
   * endpoint answers 401 (a failed request in the browser's console for each hook on a public
   * page), so the session is read first (the one in flight, or the one held) and a signed-out
   * caller's organization value is null without a request.
   */
  function readWhenSignedIn(path: string) {
    return async (): Promise<ClientResult<unknown>> =>
      (await session.settled()).data ? get(path) : { data: null, error: null };
  }

  function get<T>(path: string): Promise<ClientResult<T>> {
    return send("GET", path, undefined, undefined).then(({ result }) => result as ClientResult<T>);
  }

  function afterSuccess(verb: Method, path: string, data: unknown, call: CallOptions | undefined): void {
    const answer = (data ?? {}) as { twoFactorRedirect?: unknown; redirect?: unknown; url?: unknown };
    // A second factor is due: no session exists yet, so there is nothing to re-read.
    if (answer.twoFactorRedirect === true) {
      options.onTwoFactorRedirect?.(
        data as Parameters<NonNullable<AuthClientOptions["onTwoFactorRedirect"]>>[0],
      );
      return;
    }
    if (answer.redirect === true && typeof answer.url === "string" && call?.navigate !== false)
      if (isNavigable(answer.url)) navigate(answer.url);
    const stale = staleStoresAfter(verb, path);
    if (!stale.organizations && !stale.passkeys) return;
    setTimeout(() => {
      if (stale.session) session.invalidate();
      if (stale.passkeys) passkeys.invalidate();
      if (stale.organizations) for (const store of organizationStores) store.invalidate();
    }, SIGNAL_DELAY_MS);
  }

  async function call(verb: Method, path: string, input?: Record<string, unknown>, options?: CallOptions) {
    const { result } = await send(verb, path, input, options);
    if (!result.error) afterSuccess(verb, path, result.data, options);
    return result;
  }

  function method(route: string) {
    const verb: Method = route[0] === "G" ? "GET" : "POST";
    return (input?: Record<string, unknown>, options?: CallOptions) =>
      call(verb, route.slice(1), input, options);
  }

  function build(table: RouteTable): Record<string, unknown> {
    const methods: Record<string, unknown> = {};
    for (const [name, route] of Object.entries(table))
      methods[name] = typeof route === "string" ? method(route) : build(route);
    return methods;
  }

  const api = build(ROUTES) as unknown as AuthClientApi;
  const [activeOrganization, organizations, activeMember, activeMemberRole] = organizationStores;
  const stores = { activeOrganization, organizations, activeMember, activeMemberRole };
  const passkey = createPasskeyMethods(call);
  return {
    ...api,
    signIn: { ...api.signIn, passkey: passkey.signIn },
    signUp: { ...api.signUp, passkey: passkey.signUp },
    passkey: { ...api.passkey, addPasskey: passkey.addPasskey },
    // Better Auth's name for POST /forget-password/email-otp, on the method of /forget-password.
    forgetPassword: Object.assign(api.forgetPassword, { emailOtp: api.emailOtp.forgetPassword }),
    organization: { ...api.organization, checkRolePermission: createRolePermissionCheck(options.roles) },
    // Any path under the base path, with the methods' hooks, retries and store re-reads.
    $fetch: (path: string, { method: verb, body, ...options }: FetchCallOptions = {}) =>
      call(verb ?? (body ? "POST" : "GET"), path, body, options) as Promise<ClientResult<never>>,
    $store: { session, passkeys, ...(stores as Omit<AuthClient["$store"], "session" | "passkeys">) },
  };
}
