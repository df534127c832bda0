/**
 * `@tessera/auth-core/client`: the browser (and Node) client. It imports only types from the rest
 * of the package: a browser bundle of it carries no server code (tests/client/bundle.test.ts).
 */

export type { Session, SessionAndUser, User } from "../contracts/models.ts";
export type {
  AdminMethods,
  ApiKeyMethods,
  AuthClient,
  AuthClientApi,
  AuthClientStores,
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
} from "./api.ts";
export { createAuthClient } from "./create-client.ts";
export type { CeremonyError } from "./passkey-errors.ts";
export type {
  AddPasskey,
  AddPasskeyOptions,
  PasskeySignInOptions,
  PasskeySignUpOptions,
  SignInPasskey,
  SignUpPasskey,
  WebAuthnOutcome,
} from "./passkey-types.ts";
export type { RolePermissionQuery } from "./role-permission.ts";
export type {
  AuthClientOptions,
  AuthStore,
  CallOptions,
  CeremonyErrorCode,
  ClientError,
  ClientResult,
  ErrorContext,
  ExponentialRetry,
  FetchCallOptions,
  FetchOptions,
  LinearRetry,
  RequestContext,
  ResponseContext,
  RetryOptions,
  SessionRefetchOptions,
  StoreState,
  SuccessContext,
} from "./types.ts";
