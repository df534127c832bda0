import type { AnyEndpoint } from "../../../http/define-endpoint.ts";
import { changePassword } from "./change-password.ts";
import { forgetPassword } from "./forget-password.ts";
import { requestPasswordReset } from "./request-password-reset.ts";
import { resetPassword } from "./reset-password.ts";
import { resetPasswordCallback } from "./reset-password-token.ts";
import { setPassword } from "./set-password.ts";

const passwordList = [
  requestPasswordReset,
  forgetPassword,
  resetPasswordCallback,
  resetPassword,
  changePassword,
  setPassword,
] as const;
export const passwordEndpoints: readonly AnyEndpoint[] = passwordList;
/** The endpoints of this feature, with their types (the keys and signatures of `auth.api`). */
export type PasswordEndpoint = (typeof passwordList)[number];
