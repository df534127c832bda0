import type { AuthContext } from "../../context.ts";
import type { PasskeySignUp } from "../../contracts/passkey.ts";
import type { PasskeyDoc, UserDoc } from "../../db/documents.ts";
import { ObjectId } from "../../db/ids.ts";
import { granted, type Outcome, refused } from "../../errors/refusal.ts";
import { establishSession, type SessionRequest, toSession, toUser } from "../session/index.ts";
import { createUser, deleteUserById } from "../users/index.ts";
import { createSignedUpUser } from "../verification/index.ts";
import type { PendingSignUp } from "./rules.ts";
import { toPasskey } from "./rules.ts";
import { findPasskeyByCredentialID, insertPasskey } from "./store.ts";

type SignUpRefusal = "PASSKEY_ALREADY_REGISTERED" | "USER_ALREADY_EXISTS" | "UNABLE_TO_CREATE_ACCOUNT";

/**
 * Passkey-first sign-up (docs/passkeys.md): the user and their passkey, through the same creation as
 * sign-up/email (users' createUser: the address claim, the create hooks, the timeline), the same
 * verification mail, and the same answer for a taken address when verification is required (no
 * enumeration). No password is ever set. With verification required no session is minted: the
 * passkey signs in once the address is verified. `emailAndPassword.autoSignIn` is the password
 * sign-up's and does not apply (docs/passkeys.md "Passkey-first sign-up").
 */
export async function signUpWithPasskey(
  auth: AuthContext,
  request: SessionRequest & { sender: { kind: "client"; address: string | null } },
  signUp: PendingSignUp,
  passkey: PasskeyDoc,
): Promise<Outcome<PasskeySignUp, SignUpRefusal>> {
  const config = auth.options.emailAndPassword;
  // Checked before the user exists: a credential already stored is refused without a user left behind.
  if (await findPasskeyByCredentialID(auth.collections, passkey.credentialID))
    return refused("PASSKEY_ALREADY_REGISTERED");
  const fields = {
    email: signUp.email,
    name: signUp.name,
    image: null,
    emailVerified: false,
    ...(signUp.language ? { language: signUp.language } : {}),
  };
  // Mailed: the verification mail's row before the user, sent after it and its passkey
  // (verification's createSignedUpUser: no unverified user left unmailed by a crash).
  const created = await createSignedUpUser(
    auth,
    fields,
    signUp.callbackURL ?? undefined,
    request.sender,
    (id) => storeUserAndPasskey(auth, { ...fields, ...(id && { id }) }, passkey),
  );
  if (!created.ok) {
    if (created.reason === "passkey") return refused("PASSKEY_ALREADY_REGISTERED");
    if (created.reason === "exists" && config.requireEmailVerification)
      return granted(decoyAnswer(auth, signUp, passkey));
    return refused(created.reason === "exists" ? "USER_ALREADY_EXISTS" : "UNABLE_TO_CREATE_ACCOUNT");
  }
  const { user, stored } = created;
  await created.runAfterHooks();
  if (config.requireEmailVerification)
    return granted({ ...toPasskey(stored), session: null, user: toUser(user) });
  // A user this request created has no ban to check and no second factor yet.
  const { session } = await establishSession(auth, request, user, {
    rememberMe: true,
    ban: "not-applicable",
    secondFactor: "not-applicable",
  });
  return granted({ ...toPasskey(stored), session: toSession(session), user: toUser(user) });
}

type StoredSignUp =
  | { ok: true; user: UserDoc; stored: PasskeyDoc; runAfterHooks: () => Promise<void> }
  | { ok: false; reason: "exists" | "refused" | "passkey" };

/** The user, then its passkey; a credential stored meanwhile by another registration takes the user back. */
async function storeUserAndPasskey(
  auth: AuthContext,
  fields: Parameters<typeof createUser>[1],
  passkey: PasskeyDoc,
): Promise<StoredSignUp> {
  const created = await createUser(auth, fields);
  if (!created.ok) return created;
  const stored = { ...passkey, userId: created.user._id };
  if (!(await insertPasskey(auth.collections, stored))) {
    // Another registration stored the credential meanwhile: the user goes with its claim.
    await deleteUserById(auth.collections, created.user._id);
    return { ok: false, reason: "passkey" };
  }
  return { ok: true, user: created.user, stored, runAfterHooks: created.runAfterHooks };
}

/** What a new address would answer, for a taken one: nothing stored, nothing sent. */
function decoyAnswer(auth: AuthContext, signUp: PendingSignUp, passkey: PasskeyDoc): PasskeySignUp {
  const now = auth.now();
  const userId = new ObjectId();
  return {
    ...toPasskey({ ...passkey, userId }),
    session: null,
    user: toUser({
      _id: userId,
      email: signUp.email,
      name: signUp.name,
      image: null,
      emailVerified: false,
      createdAt: now,
      updatedAt: now,
    }),
  };
}
