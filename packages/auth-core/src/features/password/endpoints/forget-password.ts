import { forgetPasswordContract } from "../../../contracts/password.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { requestPasswordReset } from "./request-password-reset.ts";

/** the older path of the same call; identical behaviour. */
export const forgetPassword = defineEndpoint(forgetPasswordContract, {
  fieldErrors: requestPasswordReset.fieldErrors,
  handler: requestPasswordReset.handler,
});
