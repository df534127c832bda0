import { z } from "zod";
import { defineContract } from "./contract.ts";
import {
  type Session,
  sessionAndUserSchema,
  sessionSchema,
  statusTrueSchema,
  type User,
  userSchema,
} from "./models.ts";
import {
  authenticationOptionsSchema,
  type Passkey,
  passkeySchema,
  passkeyShape,
  registrationOptionsSchema,
} from "./passkey-models.ts";
import { callbackURLField, emailField, languageField, nameField } from "./schemas.ts";
import { twoFactorRedirectSchema } from "./two-factor.ts";

export type { AuthenticationOptions, Passkey, RegistrationOptions } from "./passkey-models.ts";

/**
 * base64url as WebAuthn's JSON encodings carry binary values; bounded so no body is parsed for long.
 * Trailing "=" padding is accepted and dropped: WebAuthn L3 §5.1 omits it, but some clients send it
 * (recorded responses in features/passkey/conformance-vectors.json), and a credential id or user
 * handle is then compared as the unpadded text it is stored as.
 */
const base64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*={0,2}$/)
    .overwrite((value) => value.replace(/=+$/, ""));
const passkeyIdField = z.string().regex(/^[0-9a-f]{24}$/);
/** A passkey's label; "" is no label. */
const passkeyNameField = z.string().trim().max(100);

/** What every PublicKeyCredential JSON carries besides its `response`. */
const credentialFields = {
  id: base64url(1366).min(1),
  rawId: base64url(1366).min(1),
  type: z.literal("public-key"),
  authenticatorAttachment: z.string().max(32).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).optional(),
};
const clientDataJSON = base64url(8192).min(1);

/** WebAuthn's RegistrationResponseJSON (@simplewebauthn/browser startRegistration), as sent. */
const registrationResponseField = z.looseObject({
  ...credentialFields,
  response: z.looseObject({
    clientDataJSON,
    attestationObject: base64url(32768).min(1),
    transports: z.array(z.string().max(32)).max(10).optional(),
  }),
});

/** WebAuthn's AuthenticationResponseJSON (@simplewebauthn/browser startAuthentication), as sent. */
const authenticationResponseField = z.looseObject({
  ...credentialFields,
  response: z.looseObject({
    clientDataJSON,
    authenticatorData: base64url(8192).min(1),
    signature: base64url(2048).min(1),
    userHandle: base64url(128).optional(),
  }),
});

/** A passkey-first sign-up: the new user and their session (null while the address awaits verification). */
export interface PasskeySignUp extends Passkey {
  session: Session | null;
  user: User;
}

const passkeySignUpSchema: z.ZodType<PasskeySignUp> = z.strictObject({
  ...passkeyShape,
  session: sessionSchema.nullable(),
  user: userSchema,
});

const CEREMONY_ERRORS = ["CHALLENGE_NOT_FOUND"] as const;

export const passkeyRegisterOptionsContract = defineContract({
  name: "generatePasskeyRegistrationOptions",
  method: "GET",
  path: "/passkey/generate-register-options",
  // A session registers a passkey for its user (fresh, checked by the handler: without a session
  // this is passkey-first sign-up, which needs none).
  auth: "optional",
  query: z.strictObject({
    authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
    /** With a session: the account name the authenticator shows (default the user's email). */
    name: nameField.optional(),
    /** Without a session: the address of the account a passkey-first sign-up creates. */
    email: emailField.optional(),
    /** Without a session: the new user's name (default ""). */
    displayName: nameField.optional(),
    /** Without a session: where the verification mail's link leads. */
    callbackURL: callbackURLField.optional(),
    /** Without a session: the new user's language. */
    language: languageField.optional(),
  }),
  response: registrationOptionsSchema,
  errors: ["SESSION_REQUIRED", "SESSION_NOT_FRESH", "INVALID_EMAIL"],
  summary:
    "Starts registering a passkey: for the signed-in user, or for a new account (passkey-first sign-up).",
  notes: "Sets the challenge cookie (5 minutes). Without a session, `email` starts a passkey-first sign-up.",
  tags: ["passkey"],
});

export const passkeyRegistrationContract = defineContract({
  name: "verifyPasskeyRegistration",
  method: "POST",
  path: "/passkey/verify-registration",
  auth: "optional",
  setsSessionCookies: true,
  body: z.strictObject({
    response: registrationResponseField,
    name: passkeyNameField.optional(),
    /** Accepted for Better Auth's client; a passkey-first sign-up signs in unless verification is required. */
    createSession: z.boolean().optional(),
  }),
  response: z.union([passkeySignUpSchema, passkeySchema]),
  errors: [
    ...CEREMONY_ERRORS,
    "SESSION_NOT_FRESH",
    "YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY",
    "FAILED_TO_VERIFY_REGISTRATION",
    "PASSKEY_ALREADY_REGISTERED",
    "USER_ALREADY_EXISTS",
    "UNABLE_TO_CREATE_ACCOUNT",
    "FAILED_TO_CREATE_SESSION",
  ],
  summary: "Checks the authenticator's answer and stores the passkey (and, for a sign-up, the new user).",
  notes: "Answers the passkey; a sign-up answers it with `session` and `user`.",
  tags: ["passkey"],
});

export const passkeyAuthenticateOptionsContract = defineContract({
  name: "generatePasskeyAuthenticationOptions",
  method: "GET",
  path: "/passkey/generate-authenticate-options",
  auth: "optional",
  response: authenticationOptionsSchema,
  errors: [],
  summary: "Starts a passkey sign-in (any discoverable passkey, or the signed-in user's).",
  notes: "Sets the challenge cookie (5 minutes).",
  tags: ["passkey"],
});

export const passkeyAuthenticationContract = defineContract({
  name: "verifyPasskeyAuthentication",
  method: "POST",
  path: "/passkey/verify-authentication",
  auth: "none",
  setsSessionCookies: true,
  body: z.strictObject({ response: authenticationResponseField }),
  response: z.union([sessionAndUserSchema, twoFactorRedirectSchema]),
  errors: [
    ...CEREMONY_ERRORS,
    "AUTHENTICATION_FAILED",
    "BANNED_USER",
    "EMAIL_NOT_VERIFIED",
    "SSO_REQUIRED",
    "FAILED_TO_CREATE_SESSION",
  ],
  summary: "Signs in with a passkey.",
  notes: "Answers `{ session, user }`; a two-factor user without user verification gets the challenge.",
  tags: ["passkey"],
});

export const listPasskeysContract = defineContract({
  name: "listPasskeys",
  method: "GET",
  path: "/passkey/list-user-passkeys",
  auth: "session",
  response: z.array(passkeySchema),
  errors: [],
  summary: "The caller's passkeys, oldest first.",
  tags: ["passkey"],
});

export const updatePasskeyContract = defineContract({
  name: "updatePasskey",
  method: "POST",
  path: "/passkey/update-passkey",
  auth: "session",
  body: z.strictObject({ id: passkeyIdField, name: passkeyNameField.pipe(z.string().min(1)) }),
  response: z.strictObject({ passkey: passkeySchema }),
  errors: ["PASSKEY_NOT_FOUND"],
  summary: "Renames one of the caller's passkeys.",
  tags: ["passkey"],
});

export const deletePasskeyContract = defineContract({
  name: "deletePasskey",
  method: "POST",
  path: "/passkey/delete-passkey",
  auth: "session",
  body: z.strictObject({ id: passkeyIdField }),
  response: statusTrueSchema,
  errors: ["PASSKEY_NOT_FOUND", "CANNOT_REMOVE_LAST_SIGN_IN_METHOD"],
  summary: "Deletes one of the caller's passkeys, unless it is their only way to sign in.",
  tags: ["passkey"],
});

/** What every admin endpoint may answer besides its own (features/admin/endpoints/guards.ts). */
const ADMIN_GUARD = ["RESOURCE_ACCESS_NOT_ALLOWED", "NOT_ALLOWED_WHILE_IMPERSONATING"] as const;
const userIdField = z.string().min(1).max(64);

export const adminListUserPasskeysContract = defineContract({
  name: "adminListUserPasskeys",
  method: "POST",
  path: "/admin/list-user-passkeys",
  auth: "session",
  body: z.strictObject({ userId: userIdField }),
  response: z.strictObject({ passkeys: z.array(passkeySchema) }),
  errors: [...ADMIN_GUARD, "USER_NOT_FOUND"],
  summary: "A user's passkeys, oldest first (the admin's user page).",
  tags: ["admin", "passkey"],
});

export const adminRemoveUserPasskeyContract = defineContract({
  name: "adminRemoveUserPasskey",
  method: "POST",
  path: "/admin/remove-user-passkey",
  auth: "session",
  body: z.strictObject({ userId: userIdField, passkeyId: passkeyIdField }),
  response: z.strictObject({ success: z.literal(true) }),
  errors: [...ADMIN_GUARD, "USER_NOT_FOUND", "PASSKEY_NOT_FOUND"],
  summary: "Removes one of a user's passkeys (audited), even their last way to sign in.",
  notes: "Recorded in the audit trail as `passkey.remove`.",
  tags: ["admin", "passkey"],
});
