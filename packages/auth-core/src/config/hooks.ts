import type { AccountDoc, SessionDoc, UserDoc } from "../db/documents.ts";

/**
 * Lifecycle hooks. A `before` hook may return `false` to refuse the write (the endpoint answers as
 * if the write failed) or `{ data }` to change the fields about to be written; `after` hooks see the
 * stored document. Hooks run in the request: a throwing hook fails the request.
 */
export interface BeforeHookResult<T> {
  data?: Partial<T>;
}
export interface WriteHooks<T> {
  before?: (
    data: T,
  ) => Promise<BeforeHookResult<T> | false | undefined> | BeforeHookResult<T> | false | undefined;
  after?: (doc: T) => Promise<void> | void;
}
/**
 * Deletion hooks: `before` sees the document about to be deleted and may return `false` to refuse
 * (nothing is deleted); `after` sees it once it is gone. Used by user deletion (features/deletion).
 */
export interface DeleteHooks<T> {
  /** Returns (or resolves to) `false` to refuse; any other result lets the deletion proceed. */
  before?: (doc: T) => unknown;
  after?: (doc: T) => Promise<void> | void;
}
export interface EntityHooks<T> {
  create?: WriteHooks<T>;
  update?: WriteHooks<Partial<T>>;
  delete?: DeleteHooks<T>;
}
export interface AuthHooks {
  user?: EntityHooks<UserDoc>;
  session?: EntityHooks<SessionDoc>;
  account?: EntityHooks<AccountDoc>;
}

export interface MailUser {
  id: string;
  email: string;
  name: string;
}

/**
 * Mail hooks: when one is given it replaces the built-in template and mailer for that mail
 * (the app sends it its own way). Every mail the core sends goes through exactly one of these.
 */
export interface MailHooks {
  sendVerificationEmail?: (data: { user: MailUser; url: string; token: string }) => Promise<void> | void;
  sendResetPassword?: (data: { user: MailUser; url: string; token: string }) => Promise<void> | void;
  sendChangeEmailVerification?: (data: {
    user: MailUser;
    newEmail: string;
    url: string;
    token: string;
  }) => Promise<void> | void;
  /** To the address that was just replaced by `newEmail` (security matrix E11); no link. */
  sendEmailChangedNotice?: (data: { user: MailUser; newEmail: string }) => Promise<void> | void;
  sendDeleteAccountVerification?: (data: {
    user: MailUser;
    url: string;
    token: string;
  }) => Promise<void> | void;
}
