import { z } from "zod";
import { defineContract } from "./contract.ts";
import { callbackURLField, passwordField, tokenField } from "./schemas.ts";

export interface DeleteUserResponse {
  success: true;
  /** "Verification email sent" when the deletion waits for the mailed link's confirmation. */
  message: "User deleted" | "Verification email sent";
}

const deleteUserResponseSchema: z.ZodType<DeleteUserResponse> = z.strictObject({
  success: z.literal(true),
  message: z.enum(["User deleted", "Verification email sent"]),
});

/**
 * docs/decisions/ "Delete user". Declared `auth: "none"` on purpose: the handler reads the session
 * itself, from the database and without the sliding refresh, so the freshness rule sees the
 * session's real last update. A session is still required (401).
 */
export const deleteUserContract = defineContract({
  name: "deleteUser",
  method: "POST",
  path: "/delete-user",
  auth: "none",
  httpCredentials: ["session"],
  body: z.strictObject({
    callbackURL: callbackURLField.optional(),
    password: passwordField.optional(),
    token: tokenField.optional(),
  }),
  response: deleteUserResponseSchema,
  errors: [
    "DELETE_USER_DISABLED",
    "UNAUTHORIZED",
    "NOT_ALLOWED_WHILE_IMPERSONATING",
    "CREDENTIAL_ACCOUNT_NOT_FOUND",
    "INVALID_PASSWORD",
    "SESSION_EXPIRED",
    "SOLE_OWNER_CANNOT_BE_DELETED",
    "UNABLE_TO_CREATE_VERIFICATION",
    "INVALID_TOKEN",
    "DELETE_USER_REFUSED",
    "USER_NOT_FOUND",
  ],
  summary:
    "Deletes the caller's account and data, or mails a confirmation link first (password, token or fresh session).",
  notes:
    "A session is required (401), plus the password, an emailed token, or a fresh session; needs `user.deleteUser.enabled`; the sole owner of an organization with other members is refused (`SOLE_OWNER_CANNOT_BE_DELETED`).",
  tags: ["deletion"],
});

/**
 * The link of the confirmation mail. With a callbackURL (the mailed link always has one) the
 * refusals redirect there as `?error=<code>`; without one they are JSON errors. Auth "optional" so
 * that a signed-out click can be redirected too.
 */
export const deleteUserCallbackContract = defineContract({
  name: "deleteUserCallback",
  method: "GET",
  path: "/delete-user/callback",
  auth: "optional",
  httpCredentials: ["session"],
  // A mailed link: mail trackers append parameters (utm_*), so unknown keys are stripped, never
  // refused nor passed on (review finding s9-4); the known keys keep their strict types.
  query: z.object({
    token: tokenField,
    callbackURL: callbackURLField.optional(),
  }),
  // JSON only without a callbackURL, and then always "User deleted".
  response: deleteUserResponseSchema,
  answers: "json-or-redirect",
  errors: [
    "DELETE_USER_DISABLED",
    "UNAUTHORIZED",
    "SOLE_OWNER_CANNOT_BE_DELETED",
    "INVALID_TOKEN",
    "DELETE_USER_REFUSED",
    "USER_NOT_FOUND",
  ],
  summary: "Confirms an account deletion from the mailed link; the token must belong to the signed-in user.",
  client: "deleteUserCallback",
  notes: "The mailed link.",
  tags: ["deletion"],
});
