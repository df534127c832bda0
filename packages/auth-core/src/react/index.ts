import type { AuthClient } from "../client/api.ts";
import { createAuthClient as createBaseClient } from "../client/create-client.ts";
import type { AuthClientOptions } from "../client/types.ts";
import type { SessionAndUser } from "../contracts/models.ts";
import type { FullOrganization, MemberWithUser, Organization } from "../contracts/organization-models.ts";
import type { Passkey } from "../contracts/passkey.ts";
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
}

export function createAuthClient(options: AuthClientOptions = {}): ReactAuthClient {
  const client = createBaseClient(options);
  const { session, activeOrganization, organizations, activeMember, activeMemberRole, passkeys } =
    client.$store;
  return {
    ...client,
    useSession: (initialData) => useStore(session, initialData),
    useActiveOrganization: (initialData) => useStore(activeOrganization, initialData),
    useListOrganizations: (initialData) => useStore(organizations, initialData),
    useActiveMember: (initialData) => useStore(activeMember, initialData),
    useActiveMemberRole: (initialData) => useStore(activeMemberRole, initialData),
    useListPasskeys: (initialData) => useStore(passkeys, initialData),
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
export type { HookState } from "./use-store.ts";
