import type { SessionAndUser } from "../contracts/models.ts";
import type {
  FullOrganization,
  MemberWithUser,
  Organization as OrganizationRow,
} from "../contracts/organization-models.ts";
import type { Passkey } from "../contracts/passkey.ts";
import type {
  AuthClientApi,
  EmailOtpMethods,
  OrganizationMethods,
  PasskeyMethods,
  SignInMethods,
  SignUpMethods,
} from "./api.generated.ts";
import type { AddPasskey, SignInPasskey, SignUpPasskey } from "./passkey-types.ts";
import type { RolePermissionQuery } from "./role-permission.ts";
import type { AuthStore, ClientResult, FetchCallOptions } from "./types.ts";

/**
 * The client's methods (`AuthClientApi` and its groups) are generated from the contracts into
 * api.generated.ts by `pnpm gen`: one per endpoint a browser may call, written out as named
 * interfaces so that editors read them rather than infer them.
 */
export type {
  AdminMethods,
  ApiKeyMethods,
  AuthClientApi,
  EmailOtpMethods,
  MagicLinkMethods,
  OrganizationMethods,
  PasskeyMethods,
  ScimMethods,
  SignInMethods,
  SignUpMethods,
  SsoMethods,
  TwoFactorMethods,
  WebhooksMethods,
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
  /** The caller's role in the active organization (`organization.getActiveMemberRole`). */
  activeMemberRole: AuthStore<{ role: string }>;
  /** The caller's passkeys (`passkey.listUserPasskeys`), null when signed out. */
  passkeys: AuthStore<Passkey[]>;
}

export interface AuthClient extends AuthClientApi {
  signIn: SignInMethods & {
    /** Signs in with a passkey: options, the browser's prompt (or autofill), verification. */
    passkey: SignInPasskey;
  };
  signUp: SignUpMethods & {
    /** Passkey-first sign-up: a new account with a passkey and an address, no password. */
    passkey: SignUpPasskey;
  };
  passkey: PasskeyMethods & {
    /** Registers a passkey for the signed-in user (who signed in recently). */
    addPasskey: AddPasskey;
  };
  /** POST /forget-password; `.emailOtp` is Better Auth's name for `emailOtp.forgetPassword`. */
  forgetPassword: AuthClientApi["forgetPassword"] & { emailOtp: EmailOtpMethods["forgetPassword"] };
  organization: OrganizationMethods & {
    /**
     * Whether `role` grants every action of `permissions` by the client's role table (option
     * `roles`), decided now, with no request.
     */
    checkRolePermission(query: RolePermissionQuery): boolean;
  };
  /**
   * Calls any path under the base path (`"/organization/get-active-member-role"`) with the client's
   * base URL, fetch hooks, retries and store re-reads: for endpoints the client has no method for.
   */
  $fetch<T = unknown>(path: string, options?: FetchCallOptions): Promise<ClientResult<T>>;
  /** Stores: `client.$store.session.subscribe(…)`; the React hooks read these. */
  $store: AuthClientStores;
}
