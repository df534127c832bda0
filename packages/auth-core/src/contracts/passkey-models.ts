import { z } from "zod";

/**
 * The passkey shapes the API answers with: Better Auth's passkey plugin's field names (an app moving
 * from it keeps its client code), plus `authenticatorName` and `lastUsedAt`. Each a named interface with a schema annotated to
 * produce exactly it (contracts/models.ts explains why).
 */
export interface Passkey {
  id: string;
  name: string | null;
  userId: string;
  /** base64url, as the browser names the credential (`allowCredentials`, `response.id`). */
  credentialID: string;
  /** base64url COSE public key (public: it verifies signatures, it makes none). */
  publicKey: string;
  /** The signature counter last seen; 0 when the authenticator keeps none. */
  counter: number;
  /** "multiDevice": a synced passkey (backup eligible); "singleDevice": bound to one authenticator. */
  deviceType: "singleDevice" | "multiDevice";
  /** Whether the passkey is backed up (synced) now, as of its registration or last sign-in. */
  backedUp: boolean;
  /** Comma separated, as Better Auth stores them ("internal,hybrid"); "" when unknown. */
  transports: string;
  /** The authenticator model; null or all zeros when the authenticator does not say. */
  aaguid: string | null;
  /** The authenticator model's name when the AAGUID is a known one ("iCloud Keychain"); null otherwise. */
  authenticatorName: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** The passkey's zod shape, for answers that carry a passkey and more (verify-registration's sign-up). */
export const passkeyShape = {
  id: z.string(),
  name: z.string().nullable(),
  userId: z.string(),
  credentialID: z.string(),
  publicKey: z.string(),
  counter: z.number(),
  deviceType: z.enum(["singleDevice", "multiDevice"]),
  backedUp: z.boolean(),
  transports: z.string(),
  aaguid: z.string().nullable(),
  authenticatorName: z.string().nullable(),
  createdAt: z.date(),
  lastUsedAt: z.date().nullable(),
};

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
