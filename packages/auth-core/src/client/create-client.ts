import type { SessionAndUser } from "../contracts/models.ts";
import type { AuthClient, AuthClientApi } from "./api.ts";
import { watchBrowserEvents } from "./browser-events.ts";
import { createSend, type Method } from "./request.ts";
import { ROUTES, type RouteTable, staleStoresAfter } from "./routes.ts";
import { type ClientStore, createStore } from "./store.ts";
import type { AuthClientOptions, CallOptions, ClientResult } from "./types.ts";

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
  const organizationStores: ClientStore<unknown>[] = [
    createStore(() => get("/organization/get-full-organization")),
    createStore(() => get("/organization/list")),
    createStore(() => get("/organization/get-active-member")),
  ];

  function get<T>(path: string): Promise<ClientResult<T>> {
    return send("GET", path, undefined, undefined).then(({ result }) => result as ClientResult<T>);
  }

  function afterSuccess(path: string, data: unknown, call: CallOptions | undefined): void {
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
    const stale = staleStoresAfter(path);
    if (!stale.session && !stale.organizations) return;
    setTimeout(() => {
      if (stale.session) session.invalidate();
      for (const store of organizationStores) store.invalidate();
    }, SIGNAL_DELAY_MS);
  }

  function method(route: string) {
    const verb: Method = route[0] === "G" ? "GET" : "POST";
    const path = route.slice(1);
    return async (input?: Record<string, unknown>, call?: CallOptions) => {
      const { result } = await send(verb, path, input, call);
      if (!result.error) afterSuccess(path, result.data, call);
      return result;
    };
  }

  function build(table: RouteTable): Record<string, unknown> {
    const methods: Record<string, unknown> = {};
    for (const [name, route] of Object.entries(table))
      methods[name] = typeof route === "string" ? method(route) : build(route);
    return methods;
  }

  const api = build(ROUTES) as unknown as AuthClientApi;
  const [activeOrganization, organizations, activeMember] = organizationStores;
  return {
    ...api,
    $store: {
      session,
      activeOrganization: activeOrganization as AuthClient["$store"]["activeOrganization"],
      organizations: organizations as AuthClient["$store"]["organizations"],
      activeMember: activeMember as AuthClient["$store"]["activeMember"],
    },
  };
}
