import { z } from "zod";
import { accountModel } from "./account-models.ts";
import { defineModel, type ModelValue, modelShape, pickFields, renameField } from "./model.ts";
import { type User, userSchema } from "./models.ts";
import { type TwoFactorRedirect, twoFactorRedirectSchema } from "./two-factor.ts";

/**
 * The shapes the social endpoints answer with, each a named interface with a schema annotated to
 * produce exactly it (see models.ts).
 */

/**
 * What the provider says about the person, normalised (docs/decisions/ user fields). Also what the
 * providers hand the sign-in flow (features/social/providers/types.ts).
 */
export interface ProviderProfile {
  /** The provider's stable account id (stored as `accountId`). Always a string. */
  id: string;
  /** Lower-cased by the flow, not here. Null when the provider gives none (the flow answers email_not_found). */
  email: string | null;
  /** True only when the provider says so (or is documented to verify every email it returns). */
  emailVerified: boolean;
  name: string;
  image: string | null;
}

export const providerProfileSchema: z.ZodType<ProviderProfile> = z.strictObject({
  id: z.string(),
  email: z.string().nullable(),
  emailVerified: z.boolean(),
  name: z.string(),
  image: z.string().nullable(),
});

/** /sign-in/social and /link-social without an id token: the provider's authorization URL. */
export interface SocialRedirectResult {
  url: string;
  /** False when the request asked for `disableRedirect`: the client navigates itself. */
  redirect: boolean;
}

export const socialRedirectResultSchema: z.ZodType<SocialRedirectResult> = z.strictObject({
  url: z.string(),
  redirect: z.boolean(),
});

/** /sign-in/social with an id token, when a session was created. */
export interface IdTokenSignInResult {
  redirect: false;
  /** The new session's token (its cookies are set as well). */
  token: string;
  /** The request's callbackURL, or null. */
  url: string | null;
  user: User;
}

export const idTokenSignInResultSchema: z.ZodType<IdTokenSignInResult> = z.strictObject({
  redirect: z.literal(false),
  token: z.string(),
  url: z.string().nullable(),
  user: userSchema,
});

export type SignInSocialResult = SocialRedirectResult | IdTokenSignInResult | TwoFactorRedirect;

export const signInSocialResultSchema: z.ZodType<SignInSocialResult> = z.union([
  socialRedirectResultSchema,
  idTokenSignInResultSchema,
  twoFactorRedirectSchema,
]);

/** /link-social: the authorization URL, or with an id token `{ url: "", redirect: false }` once linked. */
export interface LinkSocialResult {
  url: string;
  redirect: boolean;
  status: boolean;
}

export const linkSocialResultSchema: z.ZodType<LinkSocialResult> = z.strictObject({
  url: z.string(),
  redirect: z.boolean(),
  status: z.boolean(),
});

/**
 * A linked account as /list-accounts shows it (Better Auth's answer: `provider` is the stored
 * providerId, `scopes` the granted scope split into a list): a view of the account's declaration
 * (account-models.ts), in this order. Never tokens or password hashes.
 */
export const accountSummaryModel = defineModel([
  ...pickFields(accountModel, ["id"]),
  renameField(accountModel, "providerId", "provider"),
  ...pickFields(accountModel, ["createdAt", "updatedAt", "accountId"]),
  { key: "scopes", kind: "stringList", computed: true },
]);

export type AccountSummary = ModelValue<typeof accountSummaryModel>;

export const accountSummarySchema: z.ZodType<AccountSummary> = z.strictObject(
  modelShape(accountSummaryModel),
);

/** the answer of /get-access-token. */
export interface AccessTokenResult {
  accessToken: string;
  accessTokenExpiresAt: Date | null;
  scopes: string[];
  idToken: string | null;
}

const accessTokenFields = {
  accessToken: z.string(),
  accessTokenExpiresAt: z.date().nullable(),
  scopes: z.array(z.string()),
  idToken: z.string().nullable(),
};

export const accessTokenResultSchema: z.ZodType<AccessTokenResult> = z.strictObject(accessTokenFields);

/** the answer of /refresh-token, the access token's with the refresh token's. */
export interface RefreshTokenResult extends AccessTokenResult {
  refreshToken: string | null;
  refreshTokenExpiresAt: Date | null;
}

export const refreshTokenResultSchema: z.ZodType<RefreshTokenResult> = z.strictObject({
  ...accessTokenFields,
  refreshToken: z.string().nullable(),
  refreshTokenExpiresAt: z.date().nullable(),
});

/** The user fields of the provider's profile. */
export interface AccountInfoUser {
  id: string;
  name: string;
  email: string | null;
  image: string | null;
  emailVerified: boolean;
}

/** the endpoint reference (docs/reference.md) /account-info: what the provider says today about a linked account. */
export interface AccountInfoResult {
  user: AccountInfoUser;
  data: ProviderProfile;
}

export const accountInfoResultSchema: z.ZodType<AccountInfoResult> = z.strictObject({
  user: z.strictObject({
    id: z.string(),
    name: z.string(),
    email: z.string().nullable(),
    image: z.string().nullable(),
    emailVerified: z.boolean(),
  }),
  data: providerProfileSchema,
});
