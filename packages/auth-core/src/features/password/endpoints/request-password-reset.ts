import { type PasswordResetRequested, requestPasswordResetContract } from "../../../contracts/password.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { isPasswordResetEnabled } from "../rules.ts";
import { requestPasswordReset as issueResetLink } from "../service.ts";

/** the one answer, whether or not the address belongs to anyone. */
const RESET_REQUESTED_MESSAGE = "If this email exists in our system, check your email for the reset link";

export type { PasswordResetRequested } from "../../../contracts/password.ts";

export const requestPasswordReset = defineEndpoint(requestPasswordResetContract, {
  fieldErrors: { email: "INVALID_EMAIL" },
  async handler(ctx): Promise<PasswordResetRequested> {
    if (!isPasswordResetEnabled(ctx.auth.options.emailAndPassword))
      throw new AuthError("RESET_PASSWORD_DISABLED");
    await issueResetLink(ctx.auth, ctx.body.email, ctx.body.redirectTo, { kind: "client", address: ctx.ip });
    return { status: true, message: RESET_REQUESTED_MESSAGE };
  },
});
