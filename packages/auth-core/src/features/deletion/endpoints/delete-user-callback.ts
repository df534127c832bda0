import { type DeleteUserResponse, deleteUserCallbackContract } from "../../../contracts/deletion.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import type { ErrorCode } from "../../../errors/catalogue.ts";
import { defineEndpoint, type RedirectResult, redirectTo } from "../../../http/define-endpoint.ts";
import { clearSessionCookies } from "../../session/index.ts";
import { readOrganizationRelease } from "../organizations.ts";
import { appendErrorParam } from "../rules.ts";
import { consumeDeleteAccountToken, deleteUserAndData } from "../service.ts";

/**
 * docs/decisions/ /delete-user/callback: the link of the confirmation mail. The token must belong to the
 * signed-in user (docs/decisions/); it is consumed only then, so another user's click leaves
 * it intact. With a callbackURL (the mailed link always has one) failures redirect to it with
 * `?error=UNAUTHORIZED|INVALID_TOKEN` (or SOLE_OWNER_CANNOT_BE_DELETED, DELETE_USER_REFUSED, USER_NOT_FOUND) — the
 * user followed a link in a browser — else JSON errors.
 * Auth "optional" so that a signed-out click can be redirected too.
 */
export const deleteUserCallback = defineEndpoint(deleteUserCallbackContract, {
  highRisk: true,
  sensitive: true,
  async handler(ctx): Promise<DeleteUserResponse | RedirectResult> {
    const { auth, query } = ctx;
    if (!auth.options.user.deleteUser.enabled) throw new AuthError("DELETE_USER_DISABLED");
    const fail = (code: ErrorCode): RedirectResult => {
      if (query.callbackURL === undefined) throw new AuthError(code);
      return redirectTo(appendErrorParam(query.callbackURL, code));
    };
    const user = ctx.session?.user;
    if (!user) return fail("UNAUTHORIZED");
    // docs/security.md: checked before the token is spent, so the link still works once the
    // user has transferred ownership (the check repeats at deletion for a concurrent change).
    const organizations = await readOrganizationRelease(auth, user);
    if (organizations.blockedBy.length > 0) return fail("SOLE_OWNER_CANNOT_BE_DELETED");
    if (!(await consumeDeleteAccountToken(auth, user, query.token))) return fail("INVALID_TOKEN");
    // Refusals the deletion can still meet go to the callback too: an ownership change since the
    // check above, the delete hook's veto, or a concurrent deletion of this user that removed the row first.
    const result = await deleteUserAndData(auth, user, organizations);
    if (!result.ok) return fail(result.code);
    clearSessionCookies(auth, ctx.cookies);
    if (query.callbackURL !== undefined) return redirectTo(query.callbackURL);
    return { success: true, message: "User deleted" };
  },
});
