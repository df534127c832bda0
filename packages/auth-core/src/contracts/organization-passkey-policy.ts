import { z } from "zod";
import { defineContract } from "./contract.ts";
import { idField } from "./organization-fields.ts";

/**
 * An organization's authenticator policy (docs/passkeys.md "Authenticator policy"): whether its
 * members' passkeys must verify the user, and which authenticator models (AAGUIDs) count. Better
 * Auth has no such endpoints; the names follow the organization endpoints' verb-noun paths.
 */

export const PASSKEY_POLICY_MODES = ["any", "allow-list", "deny-list"] as const;

export interface PasskeyPolicy {
  /** Only passkeys whose authenticator verified the user (PIN, biometrics) count. */
  requireUserVerification: boolean;
  /** "any": every model; "allow-list": only those listed; "deny-list": all but those listed. */
  mode: (typeof PASSKEY_POLICY_MODES)[number];
  /** AAGUIDs, lower case, each once. */
  aaguids: string[];
}

export const passkeyPolicySchema: z.ZodType<PasskeyPolicy> = z.strictObject({
  requireUserVerification: z.boolean(),
  mode: z.enum(PASSKEY_POLICY_MODES),
  aaguids: z.array(z.string()),
});

/** The most AAGUIDs one policy lists (the models an organization names, not a registry). */
export const PASSKEY_POLICY_MAX_AAGUIDS = 100;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Any refusal of the list itself is INVALID_AAGUID (the endpoint maps the field); lower-cased and deduplicated. */
const aaguidsField = z
  .array(z.string())
  .max(PASSKEY_POLICY_MAX_AAGUIDS)
  .refine((list) => list.every((aaguid) => UUID.test(aaguid)), "not an AAGUID")
  .transform((list) => [...new Set(list.map((aaguid) => aaguid.toLowerCase()))]);

const organizationQuery = z.strictObject({ organizationId: idField.optional() });

const MEMBER_ERRORS = [
  "NO_ACTIVE_ORGANIZATION",
  "NOT_A_MEMBER_OF_ORGANIZATION",
  "ORGANIZATION_NOT_FOUND",
] as const;

export const setPasskeyPolicyContract = defineContract({
  name: "setPasskeyPolicy",
  method: "POST",
  path: "/organization/set-passkey-policy",
  auth: "session",
  body: z.strictObject({
    organizationId: idField.optional(),
    requireUserVerification: z.boolean(),
    mode: z.enum(PASSKEY_POLICY_MODES),
    aaguids: aaguidsField.default([]),
  }),
  response: passkeyPolicySchema,
  errors: [...MEMBER_ERRORS, "ORGANIZATION_UPDATE_NOT_ALLOWED", "INVALID_AAGUID"],
  summary: "Sets the named or active organization's authenticator policy (who may update the organization).",
  notes: "Replaces the whole policy; answers it as stored.",
  tags: ["organization"],
});

export const getPasskeyPolicyContract = defineContract({
  name: "getPasskeyPolicy",
  method: "GET",
  path: "/organization/get-passkey-policy",
  auth: "session",
  query: organizationQuery,
  response: passkeyPolicySchema,
  errors: [...MEMBER_ERRORS],
  summary: "The named or active organization's authenticator policy (any member).",
  notes: "An organization that never set one answers the default: any model, no user verification required.",
  tags: ["organization"],
});

/** Why a passkey does not fit a policy. */
export const PASSKEY_MISFITS = ["user-verification", "authenticator"] as const;

/** One of the caller's passkeys, judged against the policy. */
export interface PasskeyFit {
  id: string;
  name: string | null;
  aaguid: string | null;
  authenticatorName: string | null;
  fits: boolean;
  /** null when it fits; "user-verification" before "authenticator" when both fail. */
  reason: (typeof PASSKEY_MISFITS)[number] | null;
}

export interface PasskeyPolicyCheck {
  /** True when the policy asks nothing, or at least one of the caller's passkeys fits it. */
  satisfied: boolean;
  policy: PasskeyPolicy;
  passkeys: PasskeyFit[];
}

const passkeyPolicyCheckSchema: z.ZodType<PasskeyPolicyCheck> = z.strictObject({
  satisfied: z.boolean(),
  policy: passkeyPolicySchema,
  passkeys: z.array(
    z.strictObject({
      id: z.string(),
      name: z.string().nullable(),
      aaguid: z.string().nullable(),
      authenticatorName: z.string().nullable(),
      fits: z.boolean(),
      reason: z.enum(PASSKEY_MISFITS).nullable(),
    }),
  ),
});

export const checkPasskeyPolicyContract = defineContract({
  name: "checkPasskeyPolicy",
  method: "GET",
  path: "/organization/check-passkey-policy",
  auth: "session",
  query: organizationQuery,
  response: passkeyPolicyCheckSchema,
  errors: [...MEMBER_ERRORS],
  summary: "Whether the caller's passkeys fit the named or active organization's authenticator policy.",
  notes:
    "`satisfied: false` means the app should ask the member to add a passkey that fits; each passkey says whether it fits and why not.",
  tags: ["organization"],
});
