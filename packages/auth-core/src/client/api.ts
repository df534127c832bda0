import type { SessionAndUser } from "../contracts/models.ts";
import type {
  FullOrganization,
  MemberWithUser,
  Organization as OrganizationRow,
} from "../contracts/organization-models.ts";
import type { AuthClientApi } from "./api.generated.ts";
import type { AuthStore } from "./types.ts";

/**
 * The client's methods (`AuthClientApi` and its groups) are generated from the contracts into
 * api.generated.ts by `pnpm gen`: one per endpoint a browser may call, written out as named
 * interfaces so that editors read them rather than infer them.
 */
export type {
  AdminMethods,
  ApiKeyMethods,
  AuthClientApi,
  OrganizationMethods,
  TwoFactorMethods,
} from "./api.generated.ts";

/** The values the client keeps in step with the server, for subscribers and the React hooks. */
export interface AuthClientStores {
  session: AuthStore<SessionAndUser>;
  /** The active organization in full (`getFullOrganization`), null when none is active. */
  activeOrganization: AuthStore<FullOrganization>;
  /** The caller's organizations (`organization.list`). */
  organizations: AuthStore<OrganizationRow[]>;
  /** The caller's member row in the active organization. */
  activeMember: AuthStore<MemberWithUser>;
}

export interface AuthClient extends AuthClientApi {
  /** Stores: `client.$store.session.subscribe(…)`; the React hooks read these. */
  $store: AuthClientStores;
}
