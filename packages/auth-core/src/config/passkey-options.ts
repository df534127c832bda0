import { z } from "zod";

/** An origin as browsers send it in clientDataJSON: scheme, host and port, no path. */
const originValue = z.string().refine((value) => {
  try {
    return new URL(value).origin === value;
  } catch {
    return false;
  }
}, "an origin such as https://app.example.com (no path, no trailing slash)");

/** Passkeys (features/passkey, docs/passkeys.md); WebAuthn Level 3 through @simplewebauthn/server. */
export const passkeyOptionsSchema = z
  .object({
    /**
     * The relying party id: the registrable domain the passkeys belong to (WebAuthn §5.1.4). A
     * passkey works on this host and its subdomains only, and changing it orphans every stored one.
     * @default the hostname of baseURL ("localhost" without one)
     */
    rpID: z
      .string()
      .regex(/^[a-z0-9.-]+$/, "a lower-case host name such as example.com")
      .max(253)
      .optional(),
    /** The name authenticators show beside the passkey. @default appName */
    rpName: z.string().min(1).max(100).optional(),
    /**
     * The origins a ceremony may come from (clientDataJSON.origin must be one of them exactly).
     * @default the origin of baseURL
     */
    origin: z.union([originValue, z.array(originValue).min(1)]).optional(),
    /**
     * "required": a ceremony without user verification (PIN, biometrics) is refused, and a passkey
     * sign-in counts as two factors. "preferred"/"discouraged": accepted without; such a sign-in
     * of a two-factor user then still asks for the second factor.
     * @default "required"
     */
    userVerification: z.enum(["required", "preferred", "discouraged"]).default("required"),
    /** WebAuthn residentKey: "required" makes every new passkey discoverable (sign-in without an address). @default "preferred" */
    residentKey: z.enum(["required", "preferred", "discouraged"]).default("preferred"),
    /**
     * Refuse passkey-first sign-up: generate-register-options then needs a session.
     * @default false
     */
    disableSignUp: z.boolean().default(false),
  })
  .strict()
  .prefault({});
