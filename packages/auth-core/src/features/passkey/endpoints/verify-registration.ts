import type { RegistrationResponseJSON } from "@simplewebauthn/server";
import type { Passkey, PasskeySignUp } from "../../../contracts/passkey.ts";
import { passkeyRegistrationContract } from "../../../contracts/passkey.ts";
import { ObjectId } from "../../../db/ids.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { takeChallenge } from "../challenge.ts";
import { storeUserPasskey, verifyRegistration } from "../registration.ts";
import { signUpWithPasskey } from "../sign-up.ts";
import { assertFreshCaller } from "./guards.ts";

/**
 * POST /passkey/verify-registration {response, name?}. The challenge the browser's cookie names is
 * consumed first (single-use whatever follows). A registration challenge belongs to the user who
 * asked for it, still signed in and fresh; a sign-up challenge creates the user it names.
 */
export const verifyPasskeyRegistration = defineEndpoint(passkeyRegistrationContract, {
  sensitive: true,
  highRisk: true,
  async handler(ctx): Promise<Passkey | PasskeySignUp> {
    const { auth, body } = ctx;
    const ceremony = await takeChallenge(auth, ctx.cookies, ["registration", "sign-up"]);
    if (!ceremony) throw new AuthError("CHALLENGE_NOT_FOUND");
    const response = body.response as unknown as RegistrationResponseJSON;
    const name = body.name || null;
    if (ceremony.kind === "registration") {
      const caller = ctx.session;
      if (!caller || caller.user._id.toHexString() !== ceremony.userId)
        throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY");
      assertFreshCaller(auth, caller);
      const { challenge, userHandle } = ceremony;
      const passkey = await verifyRegistration(auth, response, {
        challenge,
        userId: caller.user._id,
        userHandle,
        name,
        // As stored now: a sensitive endpoint's caller is never read from the cookie cache (http/run-endpoint.ts).
        addressVerified: caller.user.emailVerified,
      });
      return answerRefusal(await storeUserPasskey(auth, answerRefusal(passkey)));
    }
    const { challenge, userHandle, signUp } = ceremony;
    // The user id is the sign-up's to choose; this one is replaced when the user is stored.
    const passkey = await verifyRegistration(auth, response, {
      challenge,
      userId: new ObjectId(),
      userHandle,
      name,
      // A passkey-first sign-up's address is unproven until its verification mail is answered.
      addressVerified: false,
    });
    const request = {
      cookies: ctx.cookies,
      ip: ctx.ip,
      userAgent: ctx.headers.get("user-agent"),
      sender: { kind: "client" as const, address: ctx.ip },
    };
    return answerRefusal(await signUpWithPasskey(auth, request, signUp, answerRefusal(passkey)));
  },
});
