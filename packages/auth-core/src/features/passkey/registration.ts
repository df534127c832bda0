import {
  type AuthenticatorTransportFuture,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import type { AuthContext } from "../../context.ts";
import type { Passkey, RegistrationOptions } from "../../contracts/passkey.ts";
import type { PasskeyDoc, UserDoc } from "../../db/documents.ts";
import { ObjectId } from "../../db/ids.ts";
import { granted, type Outcome, refused } from "../../errors/refusal.ts";
import type { CookieJar } from "../../http/cookie-jar.ts";
import { issueChallenge } from "./challenge.ts";
import {
  type PendingSignUp,
  type RelyingParty,
  relyingPartyOf,
  storedAaguid,
  toPasskey,
  userHandleOf,
} from "./rules.ts";
import { findUserPasskeys, insertPasskey } from "./store.ts";

/**
 * Registration ceremonies (docs/passkeys.md "Registering"): the options the browser hands to its
 * authenticator, and the check of the authenticator's answer through @simplewebauthn/server.
 */

export function relyingParty(auth: AuthContext): RelyingParty {
  return relyingPartyOf(auth.options);
}

const CEREMONY_TIMEOUT_MS = 300_000;

interface Attachment {
  authenticatorAttachment?: "platform" | "cross-platform" | undefined;
}

/** Options for a new passkey of a signed-in user; their passkeys are excluded (no second copy on one authenticator). */
export async function startUserRegistration(
  auth: AuthContext,
  jar: CookieJar,
  user: UserDoc,
  query: Attachment & { name?: string | undefined },
): Promise<RegistrationOptions> {
  const userHandle = userHandleOf(user._id.toHexString());
  const existing = await findUserPasskeys(auth.collections, user._id);
  const options = await registrationOptions(auth, query, {
    userHandle,
    userName: query.name || user.email,
    displayName: user.name || user.email,
    exclude: existing.map((passkey) => ({ id: passkey.credentialID, transports: passkey.transports })),
  });
  const userId = user._id.toHexString();
  await issueChallenge(auth, jar, { kind: "registration", challenge: options.challenge, userId, userHandle });
  return options;
}

/**
 * Options for a passkey-first sign-up. Nothing is looked up: the answer is the same whether the
 * address is taken or not (verify-registration decides, as sign-up/email does). The user handle is
 * random, as the user id does not exist yet; it is stored with the passkey.
 */
export async function startSignUpRegistration(
  auth: AuthContext,
  jar: CookieJar,
  signUp: PendingSignUp,
  query: Attachment,
): Promise<RegistrationOptions> {
  const userHandle = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64url");
  const options = await registrationOptions(auth, query, {
    userHandle,
    userName: signUp.email,
    displayName: signUp.name || signUp.email,
    exclude: [],
  });
  await issueChallenge(auth, jar, { kind: "sign-up", challenge: options.challenge, userHandle, signUp });
  return options;
}

async function registrationOptions(
  auth: AuthContext,
  query: Attachment,
  account: {
    userHandle: string;
    userName: string;
    displayName: string;
    exclude: { id: string; transports: string[] }[];
  },
): Promise<RegistrationOptions> {
  const rp = relyingParty(auth);
  const { residentKey, userVerification } = auth.options.passkey;
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userID: Buffer.from(account.userHandle, "base64url"),
    userName: account.userName,
    userDisplayName: account.displayName,
    timeout: CEREMONY_TIMEOUT_MS,
    // No attestation asked for: an AAGUID is still reported; packed self-attestation is still checked.
    attestationType: "none",
    excludeCredentials: account.exclude.map(({ id, transports }) => ({
      id,
      transports: transports as AuthenticatorTransportFuture[],
    })),
    authenticatorSelection: {
      residentKey,
      userVerification,
      ...(query.authenticatorAttachment ? { authenticatorAttachment: query.authenticatorAttachment } : {}),
    },
  });
  return options as RegistrationOptions;
}

/**
 * The new passkey's document once the authenticator's answer checks out against the challenge, the
 * origins, the RP id and (by default) user verification; FAILED_TO_VERIFY_REGISTRATION otherwise,
 * whatever failed (the log says what).
 */
export async function verifyRegistration(
  auth: AuthContext,
  response: RegistrationResponseJSON,
  expected: {
    challenge: string;
    userId: ObjectId;
    userHandle: string;
    name: string | null;
    /** The user's address is verified now; otherwise the passkey is marked registeredUnverified. */
    addressVerified: boolean;
  },
): Promise<Outcome<PasskeyDoc, "FAILED_TO_VERIFY_REGISTRATION">> {
  const rp = relyingParty(auth);
  const verification = await verifyRegistrationResponse({
    response,
    expectedChallenge: expected.challenge,
    expectedOrigin: rp.origins,
    expectedRPID: rp.id,
    requireUserVerification: rp.requireUserVerification,
  }).catch((error: unknown) => {
    auth.options.logger.warn("passkey registration refused", String(error));
    return null;
  });
  if (!verification?.verified) return refused("FAILED_TO_VERIFY_REGISTRATION");
  const info = verification.registrationInfo;
  return granted({
    _id: new ObjectId(),
    userId: expected.userId,
    name: expected.name,
    credentialID: info.credential.id,
    publicKey: Buffer.from(info.credential.publicKey).toString("base64url"),
    counter: info.credential.counter,
    deviceType: info.credentialDeviceType,
    backedUp: info.credentialBackedUp,
    transports: (response.response.transports ?? []).slice(0, 10),
    aaguid: storedAaguid(info.aaguid),
    userHandle: expected.userHandle,
    uvInitialized: info.userVerified,
    ...(expected.addressVerified ? {} : { registeredUnverified: true as const }),
    createdAt: auth.now(),
    lastUsedAt: null,
  });
}

/** Stores a signed-in user's new passkey. The credential id is unique across users: one already stored stays its owner's. */
export async function storeUserPasskey(
  auth: AuthContext,
  passkey: PasskeyDoc,
): Promise<Outcome<Passkey, "PASSKEY_ALREADY_REGISTERED">> {
  if (!(await insertPasskey(auth.collections, passkey))) return refused("PASSKEY_ALREADY_REGISTERED");
  return granted(toPasskey(passkey));
}
