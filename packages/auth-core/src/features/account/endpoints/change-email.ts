import { changeEmailContract } from "../../../contracts/account.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { setCookieCache } from "../../session/index.ts";
import { requestEmailChange } from "../service.ts";

export const changeEmail = defineEndpoint(changeEmailContract, {
  highRisk: true,
  // The current address and its verified state decide the flow: read from the database.
  sensitive: true,
  fieldErrors: { newEmail: "INVALID_EMAIL" },
  async handler(ctx): Promise<{ status: true }> {
    const { auth, body } = ctx;
    if (!auth.options.user.changeEmail.enabled) throw new AuthError("CHANGE_EMAIL_DISABLED");
    const caller = ctx.session!;
    const user = answerRefusal(await requestEmailChange(auth, caller.user, body.newEmail, body.callbackURL));
    if (user !== caller.user) setCookieCache(auth, ctx.cookies, caller.session, user);
    return { status: true };
  },
});
