import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import type { SessionAndUser } from "../../../contracts/models.ts";
import { passkeyAuthenticationContract } from "../../../contracts/passkey.ts";
import type { TwoFactorRedirect } from "../../../contracts/two-factor.ts";
import type { UserDoc } from "../../../db/documents.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { establishSession, toSession, toUser } from "../../session/index.ts";
import { readKnownDevice, rememberKnownDevice } from "../../sign-in-throttle/index.ts";
import { assertSignInWithoutSso } from "../../sso-domains/index.ts";
import { bannedUserError } from "../../users/index.ts";
import { sendVerificationEmailInBackground } from "../../verification/index.ts";
import { findPasskeyOwner, verifyAssertion } from "../authentication.ts";
import { takeChallenge } from "../challenge.ts";

/**
 * POST /passkey/verify-authentication {response}. The challenge is consumed, the assertion checked
 * (authentication.ts), then the session comes from the one pipeline every sign-in goes through
 * (features/session establishSession): a banned user gets BANNED_USER and no session; an unverified
 * address is refused where sign-in/email refuses it; a two-factor user is not asked for the second
 * factor when the authenticator verified the user (possession plus PIN or biometrics: two factors
 * already, NIST SP 800-63B §5.1.9), and is otherwise; the device becomes known to the sign-in
 * throttle as after a password.
 */
export const verifyPasskeyAuthentication = defineEndpoint(passkeyAuthenticationContract, {
  async handler(ctx): Promise<SessionAndUser | TwoFactorRedirect> {
    const { auth } = ctx;
    const ceremony = await takeChallenge(auth, ctx.cookies, ["authentication"]);
    if (!ceremony) throw new AuthError("CHALLENGE_NOT_FOUND");
    const response = ctx.body.response as unknown as AuthenticationResponseJSON;
    const { passkey, userVerified } = answerRefusal(
      await verifyAssertion(auth, response, ceremony.challenge),
    );
    const found = answerRefusal(await findPasskeyOwner(auth, passkey));
    const request = { cookies: ctx.cookies, ip: ctx.ip, userAgent: ctx.headers.get("user-agent") };
    const beforeGate = async (user: UserDoc) => {
      // A verified domain requiring SSO refuses its addresses' passkeys too; owners keep them
      // (break-glass, audited), as their password (features/sso-domains).
      await assertSignInWithoutSso(auth, user, "passkey", request);
      if (auth.options.emailAndPassword.requireEmailVerification && !user.emailVerified) {
        const { enabled, sendOnSignIn } = auth.options.emailVerification;
        const sender = { kind: "client" as const, address: ctx.ip };
        if (enabled && sendOnSignIn) await sendVerificationEmailInBackground(auth, user, undefined, sender);
        throw new AuthError("EMAIL_NOT_VERIFIED");
      }
      rememberKnownDevice(auth, ctx.cookies, user._id, readKnownDevice(auth, ctx.cookies, user._id));
    };
    const common = { rememberMe: true, ban: "check", beforeGate } as const;
    const established = userVerified
      ? await establishSession(auth, request, found, { ...common, secondFactor: "passed" })
      : await establishSession(auth, request, found, { ...common, secondFactor: "gate" });
    if (established.kind === "banned") throw bannedUserError(auth);
    if (established.kind === "challenge") return established.answer;
    return { session: toSession(established.session), user: toUser(established.user) };
  },
});
