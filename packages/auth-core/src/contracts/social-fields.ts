import { z } from "zod";

/** Request fields shared by /sign-in/social and /link-social. */
export const providerIdField = z.string().min(1).max(64);
/** Extra scopes asked for on top of the provider's configured ones. */
export const scopesField = z.array(z.string().min(1).max(256)).max(50);
const tokenString = z.string().min(1).max(16_384);

/** `idToken` of an OIDC id token obtained by the client (e.g. a native Google/Apple SDK). */
export const idTokenField = z.strictObject({
  token: tokenString,
  nonce: z.string().min(1).max(512).optional(),
  accessToken: tokenString.optional(),
  refreshToken: tokenString.optional(),
  /** When the access token expires, in milliseconds since the epoch. */
  expiresAt: z.number().int().positive().optional(),
});
export type IdTokenInput = z.output<typeof idTokenField>;

/** the endpoint reference (docs/reference.md) body of /get-access-token and /refresh-token. */
export const tokenRequestBody = z.strictObject({
  providerId: providerIdField,
  accountId: z.string().min(1).max(256).optional(),
  /** Server calls only (auth.api); ignored over HTTP in favour of the session. */
  userId: z.string().min(1).max(64).optional(),
});
