import type { ReactNode } from "react";
import type { AuthClient } from "../client/api.ts";
import { createAuthClient as createBaseClient } from "../client/create-client.ts";
import type { AuthClientOptions } from "../client/types.ts";
import type { SessionAndUser } from "../contracts/models.ts";
import type { FullOrganization, MemberWithUser, Organization } from "../contracts/organization-models.ts";
import type { Passkey } from "../contracts/passkey.ts";
import { createOrganizationScope, type OrganizationProviderProps } from "./organization-provider.ts";
import { type HookState, useStore } from "./use-store.ts";

/**
 * `@tessera/auth-core/react`: the client plus hooks over its stores (`useSyncExternalStore`, so
 * every component sees the same value and a change re-renders them all at once), and
 * `createAuthComponents(client)`: components that show their children by the session and role.
 */

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
  /** The caller's role in the active organization (`{ role }`), null when signed out or none is active. */
  useActiveMemberRole(initialData?: { role: string } | null): HookState<{ role: string }>;
  /** The caller's passkeys (Better Auth's name), null when signed out; re-read after a passkey changes. */
  useListPasskeys(initialData?: Passkey[] | null): HookState<Passkey[]>;
  /**
   * A subtree working in one organization instead of the session's active one: the hooks above,
   * used inside it, read through a client with that `organizationId` (AuthClientOptions).
   */
  OrganizationProvider(props: OrganizationProviderProps): ReactNode;
  /** The client the hooks use here: the nearest OrganizationProvider's, else this one (for calls). */
  useOrganizationClient(): AuthClient;
}

export function createAuthClient(options: AuthClientOptions = {}): ReactAuthClient {
  const client = createBaseClient(options);
  const { OrganizationProvider, useScopedClient } = createOrganizationScope(client, (organizationId) =>
    createBaseClient({ ...options, organizationId }),
  );
  const stores = () => useScopedClient().$store;
  return {
    ...client,
    useSession: (initialData) => useStore(stores().session, initialData),
    useActiveOrganization: (initialData) => useStore(stores().activeOrganization, initialData),
    useListOrganizations: (initialData) => useStore(stores().organizations, initialData),
    useActiveMember: (initialData) => useStore(stores().activeMember, initialData),
    useActiveMemberRole: (initialData) => useStore(stores().activeMemberRole, initialData),
    useListPasskeys: (initialData) => useStore(stores().passkeys, initialData),
    OrganizationProvider,
    useOrganizationClient: useScopedClient,
  };
}

export type {
  AuthClient,
  AuthClientOptions,
  AuthStore,
  CallOptions,
  ClientError,
  ClientResult,
  FetchCallOptions,
  FetchOptions,
  RetryOptions,
  StoreState,
} from "../client/index.ts";
export {
  type AuthComponents,
  createAuthComponents,
  type ProtectProps,
  type SignedStateProps,
} from "./components.ts";
export type { OrganizationProviderProps } from "./organization-provider.ts";
export type { HookState } from "./use-store.ts";
