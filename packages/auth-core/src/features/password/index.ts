import type { AnyEndpoint } from "../../http/define-endpoint.ts";
import { changePassword } from "./endpoints/change-password.ts";
import { forgetPassword } from "./endpoints/forget-password.ts";
import { requestPasswordReset } from "./endpoints/request-password-reset.ts";
import { resetPassword } from "./endpoints/reset-password.ts";
import { resetPasswordCallback } from "./endpoints/reset-password-token.ts";
import { setPassword } from "./endpoints/set-password.ts";

export const passwordEndpoints = [
  requestPasswordReset,
  forgetPassword,
  resetPasswordCallback,
  resetPassword,
  changePassword,
  setPassword,
] as unknown as AnyEndpoint[];
