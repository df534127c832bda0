import { z } from "zod";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { callbackURLField, emailField } from "../../schemas.ts";
import { isPasswordResetEnabled } from "../rules.ts";
import { requestPasswordReset as issueResetLink } from "../service.ts";

/** SPEC §8: the one answer, whether or not the address belongs to anyone. */
export const RESET_REQUESTED_MESSAGE =
  "If this email exists in our system, check your email for the reset link";

export interface PasswordResetRequested {
  status: true;
  message: string;
}

/** `redirectTo` is checked against the trusted origins by the engine (403 Invalid redirectURL). */
export const requestPasswordReset = defineEndpoint({
  name: "requestPasswordReset",
  method: "POST",
  path: "/request-password-reset",
  auth: "none",
  body: z.strictObject({ email: emailField, redirectTo: callbackURLField.optional() }),
  fieldErrors: { email: "INVALID_EMAIL" },
  async handler(ctx): Promise<PasswordResetRequested> {
    if (!isPasswordResetEnabled(ctx.auth.options.emailAndPassword))
      throw new AuthError("RESET_PASSWORD_DISABLED");
    await issueResetLink(ctx.auth, ctx.body.email, ctx.body.redirectTo);
    return { status: true, message: RESET_REQUESTED_MESSAGE };
  },
});
