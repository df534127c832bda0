import { z } from "zod";
import type { AccountDoc, SessionDoc, UserDoc } from "../db/documents.ts";

/**
 * Lifecycle hooks. A `before` hook may return `false` to refuse the write (the endpoint answers as
 * if the write failed) or `{ data }` to change the fields about to be written; `after` hooks see the
 * stored document, and run only once the whole operation stored it (a new user's hook once its first
 * account is stored too, before the account's) and only for a write that found its row. Hooks run
 * in the request: a throwing hook fails the request.
 * Session updates are the sliding refresh and the active organization/team (a refused one answers
 * 403 SESSION_UPDATE_REFUSED); the clears of an active organization or team are required
 * cascades: they run the `after` hook of each cleared session but ask no `before` hook.
 */
interface BeforeHookResult<T> {
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
 * (nothing is deleted); `after` sees it once it is gone. Users only (features/deletion): sessions and
 * accounts are deleted on many paths (sign-out, revocations, bans, cleanup, unlink…) that run none.
 */
interface DeleteHooks<T> {
  /** Returns (or resolves to) `false` to refuse; any other result lets the deletion proceed. */
  before?: (doc: T) => unknown;
  after?: (doc: T) => Promise<void> | void;
}
interface EntityHooks<T> {
  create?: WriteHooks<T>;
  update?: WriteHooks<Partial<T>>;
}
export interface AuthHooks {
  user?: EntityHooks<UserDoc> & { delete?: DeleteHooks<UserDoc> };
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
  /**
   * To the address that was just replaced (docs/security.md); no link. `newEmail` is null when the
   * replaced address was never verified: it may belong to a stranger, who must not learn the new one.
   */
  sendEmailChangedNotice?: (data: { user: MailUser; newEmail: string | null }) => Promise<void> | void;
  /** To the owner of API keys created from a session, when signing out everywhere deleted them; no link. */
  sendApiKeysRevokedNotice?: (data: { user: MailUser; count: number }) => Promise<void> | void;
  sendDeleteAccountVerification?: (data: {
    user: MailUser;
    url: string;
    token: string;
  }) => Promise<void> | void;
}

/*
 * Startup validation of `hooks` and `mail`.
 * Strict objects: a misspelt key (`hooks.users`, `mail.sendResetPasword`) would otherwise switch a
 * hook off without a word, and a value that is not a function would fail every request it meets.
 * Couples with the interfaces above: each of their keys, and only those, is listed here.
 */
const hookFunction = z.custom<(...args: never[]) => unknown>(
  (value) => typeof value === "function",
  "expected a function",
);
const writeHooksSchema = z.strictObject({ before: hookFunction.optional(), after: hookFunction.optional() });
const noDeleteHooks = z
  .never({ error: "not supported: only users have delete hooks (hooks.user.delete)" })
  .optional();

const hooksShape = z.strictObject({
  user: z
    .strictObject({
      create: writeHooksSchema.optional(),
      update: writeHooksSchema.optional(),
      delete: writeHooksSchema.optional(),
    })
    .optional(),
  session: z
    .strictObject({
      create: writeHooksSchema.optional(),
      update: writeHooksSchema.optional(),
      delete: noDeleteHooks,
    })
    .optional(),
  account: z
    .strictObject({
      create: writeHooksSchema.optional(),
      update: writeHooksSchema.optional(),
      delete: noDeleteHooks,
    })
    .optional(),
});

const mailHooksShape = z.strictObject({
  sendVerificationEmail: hookFunction.optional(),
  sendResetPassword: hookFunction.optional(),
  sendChangeEmailVerification: hookFunction.optional(),
  sendEmailChangedNotice: hookFunction.optional(),
  sendApiKeysRevokedNotice: hookFunction.optional(),
  sendDeleteAccountVerification: hookFunction.optional(),
});

/**
 * Checks a value against `shape` (issues keep their paths) but hands on the app's own object, not a
 * parsed copy: the hooks are called on the objects the app wrote.
 */
function checkedAgainst<T>(shape: z.ZodType): z.ZodType<T, T> {
  return z.custom<T>().superRefine((value, ctx) => {
    const result = shape.safeParse(value);
    if (result.success) return;
    for (const issue of result.error.issues) {
      const path = issue.path.map(String);
      if (issue.code === "unrecognized_keys") {
        for (const key of issue.keys)
          ctx.addIssue({ code: "custom", path: [...path, key], message: "unknown option" });
      } else ctx.addIssue({ code: "custom", path, message: issue.message });
    }
  });
}

export const hooksSchema = checkedAgainst<AuthHooks>(hooksShape);
export const mailHooksSchema = checkedAgainst<MailHooks>(mailHooksShape);
