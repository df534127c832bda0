import { z } from "zod";
import { LANGUAGE_TAG, LANGUAGES, languageOf } from "../i18n/languages.ts";

/**
 * Field schemas shared by endpoints. Strings are strings (an object never reaches a query);
 * emails are trimmed and lower-cased before they are checked, stored or looked up.
 */
/**
 * ASCII is checked before lower-casing: Unicode case folding maps some non-ASCII letters to ASCII
 * (U+212A KELVIN SIGN → "k"), which would let a look-alike address sign in as another spelling.
 * RFC 5321: local part at most 64 octets, whole address at most 254.
 */
export const emailField = z
  .string()
  .max(320)
  .trim()
  .regex(/^[\x21-\x7e]+$/)
  .toLowerCase()
  .pipe(
    z
      .email()
      .max(254)
      .refine((email) => email.indexOf("@") <= 64),
  );
/** Length rules are checked in the handler against the configured bounds (catalogue messages). */
export const passwordField = z.string();
export const callbackURLField = z.string().max(2048);
export const nameField = z.string().trim().max(256);
/**
 * A URL a user supplies for others to see (a user's image, an organization's logo); "" clears like
 * null. Its scheme rule depends on the configured baseURL, so it is checked after the schemas, for
 * every endpoint at once (http/user-urls.ts).
 */
export const userURLField = z
  .string()
  .max(2048)
  .nullable()
  .transform((value) => (value === "" ? null : value));
/** The languages of user-facing text (docs/decisions/0016-languages.md "Languages"); mail/templates/language.ts lists the same. */
const languageCodeField = z.enum(LANGUAGES);
/**
 * A language as a request gives it: one of the eight codes, or a BCP 47 tag whose primary language
 * subtag is one of theirs (`de`, `de-AT` → i18n/languages.ts languageOf). The stored and answered
 * value is always the code; a tag of another language (`pt-BR`) is a validation error.
 */
export const languageField = z
  .union([languageCodeField, z.string().max(35).regex(LANGUAGE_TAG)])
  .transform((value, context) => {
    const language = languageOf(value);
    if (language) return language;
    context.addIssue({ code: "custom", message: "not a supported language" });
    return z.NEVER;
  });
/** Query booleans arrive as strings over HTTP and as booleans from server code. */
export const queryBoolean = z
  .union([z.boolean(), z.enum(["true", "false"])])
  .transform((value) => value === true || value === "true");
export const tokenField = z.string().min(1).max(4096);
