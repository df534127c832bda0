import type { AuthContext } from "../../context.ts";
import type { Passkey } from "../../contracts/passkey.ts";
import type { ObjectId } from "../../db/ids.ts";
import { granted, type Outcome, refused } from "../../errors/refusal.ts";
import { toPasskey } from "./rules.ts";
import {
  countSignInMethods,
  deleteUnprovenPasskeys,
  deleteUserPasskey,
  deleteUserPasskeys,
  findUserPasskeys,
  renameUserPasskey,
  restorePasskey,
} from "./store.ts";

/** A user's passkeys, oldest first (the account page, the admin's view, the CLI). */
export async function listUserPasskeys(auth: AuthContext, userId: ObjectId): Promise<Passkey[]> {
  return (await findUserPasskeys(auth.collections, userId)).map(toPasskey);
}

export async function renamePasskey(
  auth: AuthContext,
  userId: ObjectId,
  id: ObjectId,
  name: string,
): Promise<Passkey | null> {
  const renamed = await renameUserPasskey(auth.collections, userId, id, name);
  return renamed ? toPasskey(renamed) : null;
}

/**
 * Deletes one of the user's passkeys, unless it is their last way to sign in (no password, no
 * provider account, no other passkey: docs/passkeys.md). Two concurrent deletes of a user's last two
 * passkeys would each see the other: so the count is taken again after the delete, and a delete that
 * left none puts its passkey back — at least one way survives whatever the interleaving.
 */
export async function removePasskey(
  auth: AuthContext,
  userId: ObjectId,
  id: ObjectId,
): Promise<Outcome<Passkey, "PASSKEY_NOT_FOUND" | "CANNOT_REMOVE_LAST_SIGN_IN_METHOD">> {
  if ((await countSignInMethods(auth.collections, userId)) <= 1) {
    const own = await findUserPasskeys(auth.collections, userId);
    return own.some((passkey) => passkey._id.equals(id))
      ? refused("CANNOT_REMOVE_LAST_SIGN_IN_METHOD")
      : refused("PASSKEY_NOT_FOUND");
  }
  const removed = await deleteUserPasskey(auth.collections, userId, id);
  if (!removed) return refused("PASSKEY_NOT_FOUND");
  if ((await countSignInMethods(auth.collections, userId)) > 0) return granted(toPasskey(removed));
  await restorePasskey(auth.collections, removed);
  return refused("CANNOT_REMOVE_LAST_SIGN_IN_METHOD");
}

/**
 * An administrator's removal (features/admin remove-user-passkey): any of the user's passkeys, the
 * last way to sign in included. Null when it is not the user's or another request removed it first.
 */
export async function deletePasskeyOfUser(
  auth: AuthContext,
  userId: ObjectId,
  id: ObjectId,
): Promise<Passkey | null> {
  const removed = await deleteUserPasskey(auth.collections, userId, id);
  return removed ? toPasskey(removed) : null;
}

/** Deletion's step for this feature (create-auth.ts userDataRemovers): the user's passkeys go with them. */
export async function deleteUserPasskeyData(auth: AuthContext, userId: ObjectId): Promise<void> {
  await deleteUserPasskeys(auth.collections, userId);
}

/**
 * A pre-registered account (docs/passkeys.md, docs/security.md "Account recovery"): once the owner
 * of the address proves the mailbox to take the account back — a password reset by link or code
 * (features/password setPasswordByMailProof), a link or code sign-in of an unverified account
 * (features/passwordless) — the passkeys registered while the address was unproven go, in the same
 * step as the password: whoever registered them may be a stranger. A verify-email click keeps them,
 * as it keeps the password. Returns how many went.
 */
export function removeUnprovenPasskeys(auth: AuthContext, userId: ObjectId): Promise<number> {
  return deleteUnprovenPasskeys(auth.collections, userId);
}
