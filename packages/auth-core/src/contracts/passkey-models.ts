import { z } from "zod";
import { defineModel, type ModelValue, modelShape } from "./model.ts";

/**
 * The passkey shapes the API answers with: Better Auth's passkey plugin's field names (an app moving
 * from it keeps its client code), plus `authenticatorName` and `lastUsedAt`. Each a named interface
 * or model value with a schema annotated to produce exactly it (contracts/models.ts explains why).
 */

/**
 * A passkey as the API shows it, declared once: its API value, schema and stored document
 * (db/documents.ts PasskeyDoc) and its mapper (features/passkey/rules.ts toPasskey) come from this
 * list, in this order. `credentialID` and `publicKey` are base64url (the public key is COSE: it
 * verifies signatures, it makes none). `counter` is the signature counter last seen, 0 when the
 * authenticator keeps none. `deviceType` "multiDevice" is a synced passkey (backup eligible),
 * "singleDevice" one bound to its authenticator; `backedUp` is as of its registration or last
 * sign-in. `aaguid` is the authenticator model, null when it does not say. Computed by the mapper:
 * `transports`, stored as a list and answered comma separated as Better Auth stores them
 * ("internal,hybrid"; "" when unknown), and `authenticatorName`, the model's name when its AAGUID is
 * a known one ("iCloud Keychain"), null otherwise. Never the WebAuthn user handle.
 */
export const passkeyModel = defineModel([
  { key: "id", stored: "_id", kind: "objectId" },
  { key: "name", kind: "string", nullable: true },
  { key: "userId", kind: "objectId" },
  { key: "credentialID", kind: "string" },
  { key: "publicKey", kind: "string" },
  { key: "counter", kind: "number" },
  { key: "deviceType", kind: "string", values: ["singleDevice", "multiDevice"] },
  { key: "backedUp", kind: "boolean" },
  { key: "transports", kind: "string", computed: true },
  { key: "aaguid", kind: "string", nullable: true },
  { key: "authenticatorName", kind: "string", nullable: true, computed: true },
  { key: "createdAt", kind: "date" },
  { key: "lastUsedAt", kind: "date", nullable: true },
]);

export type Passkey = ModelValue<typeof passkeyModel>;

/** The passkey's zod shape, for answers that carry a passkey and more (verify-registration's sign-up). */
export const passkeyShape = modelShape(passkeyModel);

export const passkeySchema: z.ZodType<Passkey> = z.strictObject(passkeyShape);

const credentialDescriptor = z.looseObject({
  id: z.string(),
  type: z.literal("public-key"),
  transports: z.array(z.string()).optional(),
});

/**
 * WebAuthn's PublicKeyCredentialCreationOptionsJSON as @simplewebauthn/server writes it; the browser
 * hands it to `navigator.credentials.create` (@simplewebauthn/browser startRegistration).
 */
export interface RegistrationOptions {
  challenge: string;
  rp: { name: string; id?: string };
  user: { id: string; name: string; displayName: string };
  pubKeyCredParams: { alg: number; type: "public-key" }[];
  timeout?: number;
  excludeCredentials?: { id: string; type: "public-key"; transports?: string[] }[];
  authenticatorSelection?: Record<string, unknown>;
  attestation?: string;
  extensions?: Record<string, unknown>;
  hints?: string[];
}

export const registrationOptionsSchema: z.ZodType<RegistrationOptions> = z.strictObject({
  challenge: z.string(),
  rp: z.strictObject({ name: z.string(), id: z.string().optional() }),
  user: z.strictObject({ id: z.string(), name: z.string(), displayName: z.string() }),
  pubKeyCredParams: z.array(z.strictObject({ alg: z.number(), type: z.literal("public-key") })),
  timeout: z.number().optional(),
  excludeCredentials: z.array(credentialDescriptor).optional(),
  authenticatorSelection: z.record(z.string(), z.unknown()).optional(),
  attestation: z.string().optional(),
  extensions: z.record(z.string(), z.unknown()).optional(),
  hints: z.array(z.string()).optional(),
});

/** WebAuthn's PublicKeyCredentialRequestOptionsJSON, for `navigator.credentials.get`. */
export interface AuthenticationOptions {
  challenge: string;
  rpId?: string;
  timeout?: number;
  allowCredentials?: { id: string; type: "public-key"; transports?: string[] }[];
  userVerification?: string;
  extensions?: Record<string, unknown>;
  hints?: string[];
}

export const authenticationOptionsSchema: z.ZodType<AuthenticationOptions> = z.strictObject({
  challenge: z.string(),
  rpId: z.string().optional(),
  timeout: z.number().optional(),
  allowCredentials: z.array(credentialDescriptor).optional(),
  userVerification: z.string().optional(),
  extensions: z.record(z.string(), z.unknown()).optional(),
  hints: z.array(z.string()).optional(),
});
