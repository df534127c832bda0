import { useCallback, useMemo, useRef, useSyncExternalStore } from "react";
import type { AuthClient } from "../client/api.ts";
import { createAuthClient as createBaseClient } from "../client/create-client.ts";
import { reviveDates } from "../client/request.ts";
import type { AuthClientOptions, AuthStore, ClientError, StoreState } from "../client/types.ts";
import type { SessionAndUser } from "../contracts/models.ts";
import type { FullOrganization, MemberWithUser, Organization } from "../contracts/organization-models.ts";

/**
 * `@tessera/auth-core/react`: the client plus hooks over its stores (`useSyncExternalStore`, so
 * every component sees the same value and a change re-renders them all at once).
 */

export interface HookState<T> {
  data: T | null;
  error: ClientError | null;
  isPending: boolean;
  refetch(): Promise<void>;
}

export interface ReactAuthClient extends AuthClient {
  /**
   * The signed-in session and user, or null. Pass the session the server read for this page (a
   * Remix loader's `auth.api.getSession`): the first render then shows it, on the server and in the
   * browser alike, with no request and no flash of a signed-out state.
   */
  useSession(initialData?: SessionAndUser | null): HookState<SessionAndUser>;
  useActiveOrganization(initialData?: FullOrganization | null): HookState<FullOrganization>;
  useListOrganizations(initialData?: Organization[] | null): HookState<Organization[]>;
  useActiveMember(initialData?: MemberWithUser | null): HookState<MemberWithUser>;
}

/**
 * A hook over one store. Initial data stands in for the store's value until its first read has
 * answered — on the server (getServerSnapshot) and in the browser's first render alike, so
 * hydration finds what the server rendered — and seeds the store when the component subscribes
 * (in the browser only: subscribing never happens on the server), so no read is sent. Nothing is
 * written to the store during render: a client created at module scope on a server is shared by
 * every request, and one user's session must not reach another's page.
 */
function useStore<T>(store: AuthStore<T>, initialData: T | null | undefined): HookState<T> {
  const initial = useRef<StoreState<T> | null>(null);
  if (initial.current === null && initialData !== undefined)
    initial.current = { data: initialData && reviveDates(initialData), error: null, isPending: false };
  const subscribe = useCallback(
    (listener: () => void) => {
      if (initial.current) store.hydrate(initial.current.data);
      return store.subscribe(listener);
    },
    [store],
  );
  const snapshot = () => {
    const state = store.get();
    return state.isPending && initial.current ? initial.current : state;
  };
  const state = useSyncExternalStore(subscribe, snapshot, snapshot);
  return useMemo(
    () => ({
      ...state,
      refetch: async () => {
        await store.refetch();
      },
    }),
    [state, store],
  );
}

export function createAuthClient(options: AuthClientOptions = {}): ReactAuthClient {
  const client = createBaseClient(options);
  const { session, activeOrganization, organizations, activeMember } = client.$store;
  return {
    ...client,
    useSession: (initialData) => useStore(session, initialData),
    useActiveOrganization: (initialData) => useStore(activeOrganization, initialData),
    useListOrganizations: (initialData) => useStore(organizations, initialData),
    useActiveMember: (initialData) => useStore(activeMember, initialData),
  };
}

export type {
  AuthClient,
  AuthClientOptions,
  AuthStore,
  CallOptions,
  ClientError,
  ClientResult,
  FetchOptions,
  RetryOptions,
  StoreState,
} from "../client/index.ts";
