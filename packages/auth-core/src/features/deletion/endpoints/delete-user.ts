import { type DeleteUserResponse, deleteUserContract } from "../../../contracts/deletion.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { clearSessionCookies, isSessionFresh } from "../../session/index.ts";
import { assertUserPassword } from "../../users/index.ts";
import { readOrganizationRelease } from "../organizations.ts";
import { chooseDeletePath } from "../rules.ts";
import {
  consumeDeleteAccountToken,
  deleteUserAndData,
  mailDeleteAccountLink,
  readCallerForDeletion,
} from "../service.ts";
import { assertNoSoleOwnership } from "./guards.ts";

export type { DeleteUserResponse } from "../../../contracts/deletion.ts";

/**
 * docs/decisions/ "Delete user". Declared `auth: "none"` on purpose: the handler reads the session
 * itself, from the database and without the sliding refresh, so the freshness rule sees the
 * session's real last update (see readCallerForDeletion). A session is still required (401).
 */
export const deleteUser = defineEndpoint(deleteUserContract, {
  sensitive: true,
  async handler(ctx): Promise<DeleteUserResponse> {
    const { auth, body } = ctx;
    const config = auth.options.user.deleteUser;
    if (!config.enabled) throw new AuthError("DELETE_USER_DISABLED");
    const caller = await readCallerForDeletion(auth, ctx.cookies);
    if (!caller) throw new AuthError("UNAUTHORIZED");
    // docs/security.md: an impersonating admin cannot delete the account (run-endpoint's
    // highRisk rule does not see this endpoint's own session read).
    if (caller.session.impersonatedBy) throw new AuthError("NOT_ALLOWED_WHILE_IMPERSONATING");
    const { user, session } = caller;
    if (body.password !== undefined) await assertUserPassword(auth, user, body.password);
    const path = chooseDeletePath({
      hasToken: body.token !== undefined,
      hasPassword: body.password !== undefined,
      sendsVerificationEmail: config.sendDeleteAccountVerification,
    });
    if (
      path === "require-fresh-session" &&
      !isSessionFresh(session, auth.now(), auth.options.session.freshAge)
    ) {
      throw new AuthError("SESSION_EXPIRED");
    }
    // docs/security.md: a sole owner is refused before a mail is sent or a token spent.
    const organizations = await readOrganizationRelease(auth, user);
    assertNoSoleOwnership(organizations);
    if (path === "send-email") {
      answerRefusal(await mailDeleteAccountLink(auth, user, body.callbackURL));
      return { success: true, message: "Verification email sent" };
    }
    if (path === "consume-token" && !(await consumeDeleteAccountToken(auth, user, body.token ?? ""))) {
      throw new AuthError("INVALID_TOKEN");
    }
    answerRefusal(await deleteUserAndData(auth, user, organizations));
    clearSessionCookies(auth, ctx.cookies);
    return { success: true, message: "User deleted" };
  },
});
