import { z } from "zod";
import { defineContract } from "./contract.ts";
import { statusTrueSchema } from "./models.ts";
import { callbackURLField, emailField, languageField, nameField, userURLField } from "./schemas.ts";

export const updateUserContract = defineContract({
  name: "updateUser",
  method: "POST",
  path: "/update-user",
  auth: "session",
  // Strict: `email` (change-email's job), `emailVerified`, `role`, ids… are refused with 400, never
  // written (docs/security.md). Strings only, so no operator object reaches the database.
  body: z.strictObject({
    name: nameField.optional(),
    image: userURLField.optional(),
    language: languageField.optional(),
  }),
  response: statusTrueSchema,
  errors: ["NO_FIELDS_TO_UPDATE", "FAILED_TO_UPDATE_USER"],
  summary: "Changes the caller's name, image or language.",
  notes:
    '`image` is an https URL (http only on an http server), or null/"" to clear; `language` (one of the eight codes, or a BCP 47 tag of one of their languages such as `de-AT`, stored as its code) chooses the language of the user\'s mails.',
  tags: ["account"],
});

export const changeEmailContract = defineContract({
  name: "changeEmail",
  method: "POST",
  path: "/change-email",
  // docs/security.md / OWASP: changing the sign-in address needs a recent authentication, so a
  // stolen long-lived session cannot redirect the account's mail (403 Session is not fresh).
  auth: "fresh-session",
  body: z.strictObject({
    newEmail: emailField,
    callbackURL: callbackURLField.optional(),
  }),
  response: statusTrueSchema,
  errors: ["CHANGE_EMAIL_DISABLED", "INVALID_EMAIL", "EMAIL_IS_THE_SAME", "EMAIL_CAN_NOT_BE_UPDATED"],
  summary:
    "Changes the caller's email: a verified address confirms by mail first, an unverified one moves at once.",
  notes: "Needs `user.changeEmail.enabled`; whenever the address moves, the old one gets a notice (no link).",
  tags: ["account"],
});
