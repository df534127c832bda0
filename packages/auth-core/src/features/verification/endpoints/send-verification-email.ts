import { sendVerificationEmailContract } from "../../../contracts/verification.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { sendVerificationEmail, sendVerificationEmailQuietly } from "../service.ts";

export const sendVerificationEmailEndpoint = defineEndpoint(sendVerificationEmailContract, {
  // The checks below read emailVerified: from the database, never from a cookie cache that may
  // predate the verification.
  sensitive: true,
  fieldErrors: { email: "INVALID_EMAIL" },
  async handler(ctx): Promise<{ status: true }> {
    const { auth, body, session } = ctx;
    if (!auth.options.emailVerification.enabled) throw new AuthError("VERIFICATION_EMAIL_NOT_ENABLED");
    if (!session) {
      // docs/decisions/ : without a session the answer never depends on the address.
      await sendVerificationEmailQuietly(auth, body.email, body.callbackURL, {
        kind: "client",
        address: ctx.ip,
      });
      return { status: true };
    }
    if (body.email !== session.user.email) throw new AuthError("EMAIL_MISMATCH");
    if (session.user.emailVerified) throw new AuthError("EMAIL_ALREADY_VERIFIED");
    await sendVerificationEmail(auth, session.user, body.callbackURL);
    return { status: true };
  },
});
