import type { AuthContext } from "../../context.ts";
import { spendPasswordWork, verifyPassword } from "../../crypto/index.ts";
import {
  deleteCredentialAccount,
  findCredentialAccount,
  insertAccount,
  setCredentialPassword,
  setCredentialPasswordReturning,
} from "../../db/accounts.ts";
import { isDuplicateKeyError } from "../../db/connect.ts";
import { type AccountDoc, CREDENTIAL_PROVIDER_ID, type UserDoc } from "../../db/documents.ts";
import { ObjectId } from "../../db/ids.ts";
import { AuthError } from "../../errors/auth-error.ts";
import { type EventDoc, eventOf, startRelay } from "../events/index.ts";
import { applyAfterHook, applyBeforeHook } from "../hooks.ts";
import { clearSignInFailures } from "../sign-in-throttle/index.ts";
import { releaseEmail } from "./claims-store.ts";
import {
  findUserById,
  insertUser,
  repairEmailClaim,
  takeEmailClaim,
  updateUserFields,
  updateUserMovingAddress,
} from "./store.ts";
import { addToTimeline, removeFromTimeline } from "./timeline-store.ts";

/**
 * A stored user whose `user.create.after` hook has not run yet: the caller runs `runAfterHooks`
 * once the whole creation is stored (the user's first account included), so an app provisioning in
 * that hook never sees a user the creation then rolls back.
 */
export type CreateUserResult =
  | { ok: true; user: UserDoc; runAfterHooks: () => Promise<void> }
  | { ok: false; reason: "exists" | "refused" };

export interface NewUserFields {
  email: string;
  name: string;
  image: string | null;
  emailVerified: boolean;
  role?: string;
  /** Absent: mails go in the configured `language` until the user picks one. */
  language?: string;
  /**
   * The id the user gets, chosen by a caller that writes something naming the user before it
   * (sign-up: its verification mail, verification/service.ts createSignedUpUser).
   */
  id?: ObjectId;
}

/** Inserts a user through the user create `before` hook; the unique email index settles races. */
export function createUser(auth: AuthContext, fields: NewUserFields): Promise<CreateUserResult> {
  return storeUser(auth, fields, null);
}

/** The credential account a sign-up stores with its user. */
interface NewCredential {
  /** A hash still being computed is awaited only once the address is claimed (sign-up-email.ts). */
  passwordHash: string | Promise<string>;
  resetRequired: boolean;
}

/**
 * The claim, then the credential account (sign-up, admin create-user with a password), then the
 * user row — the write that makes the others reachable (sign-in and sessions resolve the user row
 * first). A crash before it leaves only rows nobody reaches, and the next user created with the
 * address removes them: it takes the stale claim over and, once its own user row
 * holds the address — after which the abandoned user can never be written — deletes the abandoned
 * credential account. A sign-up still in flight that lost its claim so meets the unique email index.
 */
async function storeUser(
  auth: AuthContext,
  fields: NewUserFields,
  credential: NewCredential | null,
): Promise<
  | (CreateUserResult & { ok: false })
  | { ok: true; user: UserDoc; runAfterHooks: () => Promise<void>; account: StoredAccount | null }
> {
  const now = auth.now();
  const hooks = auth.options.hooks?.user?.create;
  const { id, ...stored } = fields;
  const doc = await applyBeforeHook<UserDoc>(hooks, {
    _id: id ?? new ObjectId(),
    ...stored,
    createdAt: now,
    updatedAt: now,
  });
  if (!doc) return { ok: false, reason: "refused" };
  // The claim decides races for the address (docs/scale.md); the unique index stays a second guard.
  const claim = await takeEmailClaim(auth.collections, doc.email, doc._id, now);
  if (!claim) return { ok: false, reason: "exists" };
  // Before the user row too: an entry without its user is skipped by its readers (docs/scale.md).
  await addToTimeline(auth.collections, doc);
  let account: StoredAccount | null = null;
  try {
    if (credential)
      account = await storeCredentialAccount(
        auth,
        doc._id,
        await credential.passwordHash,
        credential.resetRequired,
      );
  } catch (error) {
    await removeFromTimeline(auth.collections, doc);
    await releaseEmail(auth.collections, doc.email, doc._id);
    throw error;
  }
  try {
    await insertUser(auth.collections, doc);
  } catch (error) {
    if (account) await deleteCredentialAccount(auth.collections, doc._id);
    await removeFromTimeline(auth.collections, doc);
    if (!isDuplicateKeyError(error)) {
      await releaseEmail(auth.collections, doc.email, doc._id);
      throw error;
    }
    // Another user was written with the address meanwhile (the index decides): the claim is theirs.
    await repairEmailClaim(auth.collections, doc.email, now);
    return { ok: false, reason: "exists" };
  }
  if (claim.abandonedBy) await deleteCredentialAccount(auth.collections, claim.abandonedBy);
  return { ok: true, user: doc, account, runAfterHooks: () => applyAfterHook(hooks, doc) };
}

export type UserCreation = { ok: true; user: UserDoc } | { ok: false; reason: "exists" | "refused" };

/** A user with no account yet (admin create-user without a password): stored, then its after hook. */
export async function createUserAlone(auth: AuthContext, fields: NewUserFields): Promise<UserCreation> {
  const created = await createUser(auth, fields);
  if (!created.ok) return created;
  await created.runAfterHooks();
  return { ok: true, user: created.user };
}

/**
 * Sign-up and admin create-user: a user and its credential account, or neither (docs/security.md
 * N2). The account is written before the user row (storeUser): an account refused by its hook or
 * failing to insert leaves no user, only the claim given back, and the error stands
 * (UNABLE_TO_CREATE_ACCOUNT); so the account `before` hook runs before the user row exists. The
 * after hooks run once both are stored, user first.
 */
export async function createUserWithPassword(
  auth: AuthContext,
  fields: NewUserFields,
  passwordHash: string | Promise<string>,
  /** An admin-set password that must be reset before it signs anyone in. */
  resetRequired = false,
): Promise<UserCreation> {
  const created = await storeUser(auth, fields, { passwordHash, resetRequired });
  if (!created.ok) return created;
  await created.runAfterHooks();
  await created.account?.runAfterHooks();
  return { ok: true, user: created.user };
}

interface StoredAccount {
  doc: AccountDoc;
  runAfterHooks: () => Promise<void>;
}

/** The credential account's password.changed, written with the account (db/accounts.ts) and relayed here. */
function passwordChangedEvent(userId: ObjectId, at: Date): EventDoc {
  return eventOf("password.changed", at, { userId }, { userId: userId.toHexString() });
}

/**
 * Inserts the credential (email-and-password) account of an existing user (a first password:
 * password.changed). A user created with a password has no such event (sign-up: user.created).
 */
export async function createCredentialAccount(
  auth: AuthContext,
  userId: ObjectId,
  passwordHash: string,
  /** An admin-set password that must be reset before it signs anyone in. */
  resetRequired = false,
): Promise<AccountDoc> {
  const events = [passwordChangedEvent(userId, auth.now())];
  const stored = await storeCredentialAccount(auth, userId, passwordHash, resetRequired, events);
  startRelay(auth.collections, events);
  await clearSignInFailures(auth, userId);
  await stored.runAfterHooks();
  return stored.doc;
}

/** The account create `before` hook and the insert; the `after` hook is the caller's to run. */
async function storeCredentialAccount(
  auth: AuthContext,
  userId: ObjectId,
  passwordHash: string,
  resetRequired: boolean,
  events: readonly EventDoc[] = [],
): Promise<StoredAccount> {
  const now = auth.now();
  const hooks = auth.options.hooks?.account?.create;
  const doc = await applyBeforeHook<AccountDoc>(hooks, {
    _id: new ObjectId(),
    providerId: CREDENTIAL_PROVIDER_ID,
    accountId: userId.toHexString(),
    userId,
    password: passwordHash,
    accessToken: null,
    refreshToken: null,
    idToken: null,
    accessTokenExpiresAt: null,
    refreshTokenExpiresAt: null,
    scope: null,
    createdAt: now,
    updatedAt: now,
    ...(resetRequired ? { passwordResetRequired: true as const } : {}),
  });
  if (!doc) throw new AuthError("UNABLE_TO_CREATE_ACCOUNT");
  try {
    await insertAccount(auth.collections, doc, events);
  } catch (error) {
    throw new AuthError("UNABLE_TO_CREATE_ACCOUNT", { cause: error });
  }
  return { doc, runAfterHooks: () => applyAfterHook(hooks, doc) };
}

/** Updates user fields through the user update hooks; null when the user no longer exists or a hook refused. */
export async function updateUser(
  auth: AuthContext,
  userId: ObjectId,
  fields: Partial<Omit<UserDoc, "_id" | "createdAt">>,
): Promise<UserDoc | null> {
  const hooks = auth.options.hooks?.user?.update;
  const data = await applyBeforeHook<Partial<UserDoc>>(hooks, { ...fields, updatedAt: auth.now() });
  if (!data) return null;
  const { _id: _ignored, ...safe } = data;
  const updated =
    safe.email === undefined
      ? await updateUserFields(auth, userId, safe)
      : await updateUserAndAddress(auth, userId, safe);
  if (updated) await applyAfterHook(hooks, updated);
  return updated;
}

/** An update that may move the address (USER_ALREADY_EXISTS when another user holds the new one). */
async function updateUserAndAddress(
  auth: AuthContext,
  userId: ObjectId,
  fields: Partial<Omit<UserDoc, "_id">>,
): Promise<UserDoc | null> {
  const before = await findUserById(auth.collections, userId);
  if (!before) return null;
  const updated = await updateUserMovingAddress(auth, before, fields, auth.now());
  if (updated === "taken") throw new AuthError("USER_ALREADY_EXISTS");
  return updated;
}

/**
 * Stores a new password hash on a credential account, through the account update hooks. False when
 * a hook refused, the account is gone, or (with `expectedHash`) its password changed meanwhile.
 */
export async function updateCredentialPassword(
  auth: AuthContext,
  account: Pick<AccountDoc, "_id" | "userId">,
  hash: string,
  expectedHash?: string | null,
  /** An admin-set password that must be reset before it signs anyone in. */
  resetRequired = false,
  /** "rehash": the same password under a newer cost, which is no password change (no event). */
  reason: "change" | "rehash" = "change",
): Promise<boolean> {
  const hooks = auth.options.hooks?.account?.update;
  const change = await applyBeforeHook<Partial<AccountDoc>>(hooks, { password: hash, updatedAt: auth.now() });
  if (!change) return false;
  const events = reason === "change" ? [passwordChangedEvent(account.userId, auth.now())] : [];
  const write = [
    auth.collections,
    account._id,
    change.password ?? hash,
    change.updatedAt ?? auth.now(),
    expectedHash,
    resetRequired,
    events,
  ] as const;
  // A new password voids the failed sign-ins counted against the old one (features/sign-in-throttle):
  // the owner's reset is the way out of its lock.
  if (!hooks?.after) {
    const stored = await setCredentialPassword(...write);
    if (stored) {
      startRelay(auth.collections, events);
      await clearSignInFailures(auth, account.userId);
    }
    return stored;
  }
  // The after hook sees the stored account (config/hooks.ts), returned by the write itself.
  const stored = await setCredentialPasswordReturning(...write);
  if (!stored) return false;
  startRelay(auth.collections, events);
  await clearSignInFailures(auth, account.userId);
  await applyAfterHook(hooks, stored);
  return true;
}

/** What proving a password shows: the account it matched (and whether its hash is of an older cost), or why not. */
export type PasswordProof =
  | { ok: true; account: AccountDoc & { password: string }; needsRehash: boolean }
  | { ok: false; reason: "no-credential-account" | "wrong-password" };

/**
 * The one check of a user's password against their credential account: sign-in, change-password,
 * delete-user and the two-factor guards. `account`: the credential account when the caller read it
 * already (sign-in reads it before its throttle, for an unknown address too); else read here.
 * An over-long password cannot be anyone's: refused without scrypt work. With `equalWork`, a user
 * without a password costs the same scrypt work as a real check (sign-in: an unknown address must
 * not answer faster — docs/security.md, enumeration).
 */
export async function proveUserPassword(
  auth: AuthContext,
  user: Pick<UserDoc, "_id"> | null,
  password: string,
  options: { account?: AccountDoc | null; equalWork?: boolean } = {},
): Promise<PasswordProof> {
  const account =
    options.account !== undefined
      ? options.account
      : user && (await findCredentialAccount(auth.collections, user._id));
  if (!user || !account?.password) {
    if (options.equalWork) await spendPasswordWork(password);
    return { ok: false, reason: "no-credential-account" };
  }
  if (password.length > auth.options.emailAndPassword.maxPasswordLength)
    return { ok: false, reason: "wrong-password" };
  const check = await verifyPassword(account.password, password);
  if (!check.valid) return { ok: false, reason: "wrong-password" };
  return { ok: true, account: { ...account, password: account.password }, needsRehash: check.needsRehash };
}
