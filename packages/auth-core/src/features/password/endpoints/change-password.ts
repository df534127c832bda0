import { changePasswordContract, type PasswordChanged } from "../../../contracts/password.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { toUser } from "../../session/index.ts";
import { assertPasswordAllowed } from "../../users/index.ts";
import { changePassword as changeCredentialPassword, replaceAllSessions } from "../service.ts";

export type { PasswordChanged } from "../../../contracts/password.ts";

/**
 * Sensitive: the session is read from the database, never the cookie cache, so a revoked session
 * cannot change the password (docs/security.md).
 */
export const changePassword = defineEndpoint(changePasswordContract, {
  highRisk: true,
  sensitive: true,
  async handler(ctx): Promise<PasswordChanged> {
    const caller = ctx.session;
    if (!caller) throw new AuthError("UNAUTHORIZED");
    const { body } = ctx;
    await assertPasswordAllowed(ctx.auth, body.newPassword, caller.user);
    answerRefusal(
      await changeCredentialPassword(ctx.auth, caller.user._id, body.currentPassword, body.newPassword),
    );
    if (!body.revokeOtherSessions) return { token: null, user: toUser(caller.user) };
    // ASVS 7.4.3: every other session ends; the caller continues on a brand-new session.
    const session = await replaceAllSessions(ctx.auth, ctx.cookies, caller, {
      ip: ctx.ip,
      userAgent: ctx.headers.get("user-agent"),
    });
    return { token: session.token, user: toUser(caller.user) };
  },
});
