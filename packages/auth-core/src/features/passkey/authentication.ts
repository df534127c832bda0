import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  generateAuthenticationOptions,
  verifyAuthenticationResponse,
} from "@simplewebauthn/server";
import type { AuthContext } from "../../context.ts";
import type { AuthenticationOptions } from "../../contracts/passkey.ts";
import type { PasskeyDoc, UserDoc } from "../../db/documents.ts";
import { granted, type Outcome, type Refused, refused } from "../../errors/refusal.ts";
import type { CookieJar } from "../../http/cookie-jar.ts";
import { findUserById } from "../users/index.ts";
import { issueChallenge } from "./challenge.ts";
import { relyingParty } from "./registration.ts";
import { findPasskeyByCredentialID, findUserPasskeys, recordPasskeyUse } from "./store.ts";

/**
 * Sign-in ceremonies (docs/passkeys.md "Signing in"): the options, and the check of an assertion
 * through @simplewebauthn/server. Every refusal is AUTHENTICATION_FAILED, whichever check failed
 * (unknown or deleted credential, another user's handle, signature, origin, RP id, user
 * verification, a counter gone backwards): the log says which.
 */

/** Any discoverable passkey (autofill, the sign-in button); a signed-in caller's own, when given. */
export async function startAuthentication(
  auth: AuthContext,
  jar: CookieJar,
  user: UserDoc | null,
): Promise<AuthenticationOptions> {
  const rp = relyingParty(auth);
  const own = user ? await findUserPasskeys(auth.collections, user._id) : [];
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    timeout: 300_000,
    userVerification: auth.options.passkey.userVerification,
    ...(own.length > 0
      ? {
          allowCredentials: own.map((passkey) => ({
            id: passkey.credentialID,
            transports: passkey.transports as AuthenticatorTransportFuture[],
          })),
        }
      : {}),
  });
  await issueChallenge(auth, jar, { kind: "authentication", challenge: options.challenge });
  return options as AuthenticationOptions;
}

export interface VerifiedAssertion {
  passkey: PasskeyDoc;
  userVerified: boolean;
}

function refuse(auth: AuthContext, reason: string): Refused<"AUTHENTICATION_FAILED"> {
  auth.options.logger.warn("passkey sign-in refused", reason);
  return refused("AUTHENTICATION_FAILED");
}

/** The passkey an assertion proves, its new counter and backup state recorded. */
export async function verifyAssertion(
  auth: AuthContext,
  response: AuthenticationResponseJSON,
  challenge: string,
): Promise<Outcome<VerifiedAssertion, "AUTHENTICATION_FAILED">> {
  const passkey = await findPasskeyByCredentialID(auth.collections, response.id);
  if (!passkey) return refuse(auth, "unknown credential");
  // The handle the authenticator stored with the credential must be the one its owner was given
  // (WebAuthn §7.2 step 6): a credential cannot speak for another account.
  const handle = response.response.userHandle;
  if (handle !== undefined && handle !== passkey.userHandle)
    return refuse(auth, "user handle of another account");
  const rp = relyingParty(auth);
  const verification = await verifyAuthenticationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: rp.origins,
    expectedRPID: rp.id,
    requireUserVerification: rp.requireUserVerification,
    credential: {
      id: passkey.credentialID,
      publicKey: Buffer.from(passkey.publicKey, "base64url"),
      // The library refuses a counter that does not grow when either side keeps one (a cloned
      // authenticator, WebAuthn §6.1.1).
      counter: passkey.counter,
      transports: passkey.transports as AuthenticatorTransportFuture[],
    },
  }).catch((error: unknown) => String(error));
  if (typeof verification === "string") return refuse(auth, verification);
  if (!verification.verified) return refuse(auth, "signature");
  const info = verification.authenticationInfo;
  const recorded = await recordPasskeyUse(auth.collections, passkey, {
    counter: info.newCounter,
    backedUp: info.credentialBackedUp,
    userVerified: info.userVerified,
    at: auth.now(),
  });
  if (!recorded) return refuse(auth, "the passkey changed or went during the check");
  return granted({ passkey, userVerified: info.userVerified });
}

/** The user a verified passkey belongs to; refused when the user is gone (a deletion under way). */
export async function findPasskeyOwner(
  auth: AuthContext,
  passkey: PasskeyDoc,
): Promise<Outcome<UserDoc, "AUTHENTICATION_FAILED">> {
  const user = await findUserById(auth.collections, passkey.userId);
  return user ? granted(user) : refuse(auth, "the passkey's user is gone");
}
