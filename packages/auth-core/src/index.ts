export type { AuthHooks, MailHooks } from "./config/hooks.ts";
export type { AuthOptions, Logger } from "./config/options.ts";
export { type Auth, createAuth } from "./create-auth.ts";
export { AuthError, ERROR_CATALOGUE, type ErrorCode, isAuthError } from "./errors/index.ts";
export type { Session, User } from "./features/session/types.ts";
export type { ApiCallInput, ApiResult } from "./http/api.ts";
export {
  createDevOutbox,
  createSmtpMailer,
  type DevOutbox,
  type Mailer,
  type MailMessage,
} from "./mail/index.ts";
