import type { z } from "zod";
import type {
  genericProviderOptionsSchema,
  providerOptionsSchema,
} from "./features/social/providers/types.ts";

export type { AuthHooks, MailHooks, MailUser } from "./config/hooks.ts";
export type {
  AuthOptions,
  CreateOrganizationGate,
  Logger,
  SendInvitationEmail,
} from "./config/options.ts";
export { AUDIT_ACTIONS, type AuditAction } from "./contracts/admin-fields.ts";
export type {
  AdminLinkedAccount,
  AdminSession,
  AdminStats,
  AdminUser,
  AuditEvent,
  ListUsersResult,
} from "./contracts/admin-models.ts";
export type { ApiKey, ApiKeyList, ApiKeyVerification, CreatedApiKey } from "./contracts/api-key-models.ts";
export type { SignUpResult } from "./contracts/email-password.ts";
/** The event types webhooks can filter by (features/events' catalogue). */
export { EVENT_TYPES, type EventType, ORGANIZATION_EVENT_TYPES } from "./contracts/events.ts";
export type {
  PasskeyFit,
  PasskeyPolicy,
  PasskeyPolicyCheck,
} from "./contracts/organization-passkey-policy.ts";
export type { Passkey } from "./contracts/passkey-models.ts";
export type {
  AccessTokenResult,
  AccountInfoResult,
  AccountSummary,
  IdTokenSignInResult,
  LinkSocialResult,
  RefreshTokenResult,
  SocialRedirectResult,
} from "./contracts/social-models.ts";
export type { BackupCodesGenerated } from "./contracts/two-factor.ts";
export type { UserExport } from "./contracts/user-export.ts";
export type {
  CreatedWebhookEndpoint,
  WebhookAttempt,
  WebhookDelivery,
  WebhookEndpoint,
} from "./contracts/webhook-models.ts";
export { type Auth, createAuth } from "./create-auth.ts";
export { AuthError, ERROR_CATALOGUE, type ErrorCode, isAuthError } from "./errors/index.ts";
export type { CleanupResult } from "./features/cleanup.ts";
export type { DeleteUserResponse } from "./features/deletion/endpoints/delete-user.ts";
export type { SignInResult } from "./features/email-password/endpoints/sign-in-email.ts";
export type {
  FullOrganization,
  Invitation,
  InvitationDetails,
  Member,
  MemberUser,
  MemberWithUser,
  Organization,
  Team,
  TeamMember,
} from "./features/organization/index.ts";
export type { PasswordChanged } from "./features/password/endpoints/change-password.ts";
export type { PasswordResetRequested } from "./features/password/endpoints/request-password-reset.ts";
export type { CoreEndpoint, CoreEndpointName } from "./features/registry.ts";
export type { Session, User } from "./features/session/types.ts";
export {
  type BuiltInProviderId,
  type GenericProviderOptions,
  PROVIDER_IDS,
  type ProviderEndpoints,
  type ProviderOptions,
} from "./features/social/providers/types.ts";
export type { SignInCompleted as TwoFactorSignInResult } from "./features/two-factor/challenge.ts";
export type { TwoFactorRedirect } from "./features/two-factor/gate.ts";
export type { TwoFactorMethod } from "./features/two-factor/rules.ts";
export type { Enrollment as TwoFactorEnrollment } from "./features/two-factor/service.ts";
export type {
  ApiCallInput,
  ApiData,
  ApiResult,
  EndpointApiMethod,
  TypedApi,
  TypedCallInput,
} from "./http/api.ts";
export {
  chooseMailDelivery,
  createDevOutbox,
  createSmtpMailer,
  type DevOutbox,
  MAIL_DISABLED_WARNING,
  type MailDelivery,
  type MailDeliverySettings,
  type Mailer,
  type MailMessage,
} from "./mail/index.ts";

/**
 * `socialProviders.<id>` as you write it (defaults optional). `ProviderOptions` is the resolved form,
 * with every default filled in.
 */
export type SocialProviderOptions = z.input<typeof providerOptionsSchema>;
/** One entry of `genericOAuth` as you write it; `GenericProviderOptions` is the resolved form. */
export type GenericOAuthProviderOptions = z.input<typeof genericProviderOptionsSchema>;
