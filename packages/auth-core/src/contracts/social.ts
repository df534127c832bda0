import { z } from "zod";
import { defineContract } from "./contract.ts";
import { statusTrueSchema } from "./models.ts";
import { callbackURLField, languageField } from "./schemas.ts";
import { idTokenField, providerIdField, scopesField, tokenRequestBody } from "./social-fields.ts";
import {
  accessTokenResultSchema,
  accountInfoResultSchema,
  accountSummarySchema,
  linkSocialResultSchema,
  refreshTokenResultSchema,
  signInSocialResultSchema,
} from "./social-models.ts";

/**
 * the endpoint reference (docs/reference.md) social sign-in and linked accounts. A provider id is checked against the configured
 * providers by the handler (PROVIDER_NOT_FOUND / PROVIDER_NOT_SUPPORTED); here it is a string.
 */

export const signInSocialContract = defineContract({
  name: "signInSocial",
  method: "POST",
  path: "/sign-in/social",
  auth: "none",
  setsSessionCookies: true,
  body: z.strictObject({
    provider: providerIdField,
    callbackURL: callbackURLField.optional(),
    newUserCallbackURL: callbackURLField.optional(),
    errorCallbackURL: callbackURLField.optional(),
    disableRedirect: z.boolean().optional(),
    idToken: idTokenField.optional(),
    scopes: scopesField.optional(),
    requestSignUp: z.boolean().optional(),
    loginHint: z.string().min(1).max(512).optional(),
    /**
     * The language a user created by this sign-in gets (one of the eight codes): the app's choice
     * for the request (its language cookie, Accept-Language). Ignored for a returning user.
     */
    language: languageField.optional(),
  }),
  // {url, redirect} to the provider; with `idToken` a session ({redirect: false, token, url, user})
  // or the second factor's challenge.
  response: signInSocialResultSchema,
  errors: [
    "PROVIDER_NOT_FOUND",
    "CALLBACK_URL_REQUIRED",
    "ID_TOKEN_NOT_SUPPORTED",
    "INVALID_ID_TOKEN",
    "USER_EMAIL_NOT_FOUND",
    "LINKING_NOT_ALLOWED",
    "SIGNUP_DISABLED",
    "UNABLE_TO_CREATE_USER",
    "BANNED_USER",
    "FAILED_TO_CREATE_SESSION",
    "SSO_REQUIRED",
  ],
  summary: "Starts a sign-in with a provider (its authorization URL), or signs in with its id token.",
  notes: "Answers `{ url, redirect }`.",
  tags: ["social"],
});

/** Provider parameters vary (Google adds `scope`, `authuser`…): read loosely, checked in the flow. */
const callbackInput = z.record(z.string(), z.unknown());

export const callbackOAuthContract = defineContract({
  name: "callbackOAuth",
  method: ["GET", "POST"],
  path: "/callback/:id",
  auth: "none",
  setsSessionCookies: true,
  query: callbackInput,
  // A POST is a provider's form_post (Apple), turned into the same GET by a redirect.
  body: callbackInput,
  // Always a redirect, never JSON: to the flow's callbackURL (newUserCallbackURL for a new user) on
  // success; on failure to its errorCallbackURL or the /error page, with `error` in the query.
  response: z.never(),
  answers: "json-or-redirect",
  errors: [],
  summary: "The return point of a provider sign-in or link; redirects the browser onward.",
  client: false,
  notes: "The provider's return point (POST for Apple's `form_post`).",
  tags: ["social"],
});

export const linkSocialAccountContract = defineContract({
  name: "linkSocialAccount",
  method: "POST",
  path: "/link-social",
  auth: "fresh-session",
  body: z.strictObject({
    provider: providerIdField,
    callbackURL: callbackURLField.optional(),
    errorCallbackURL: callbackURLField.optional(),
    idToken: idTokenField.optional(),
    requestSignUp: z.boolean().optional(),
    scopes: scopesField.optional(),
    disableRedirect: z.boolean().optional(),
  }),
  response: linkSocialResultSchema,
  errors: [
    "PROVIDER_NOT_FOUND",
    "LINKING_NOT_ALLOWED",
    "CALLBACK_URL_REQUIRED",
    "ID_TOKEN_NOT_SUPPORTED",
    "INVALID_ID_TOKEN",
    "LINKING_DIFFERENT_EMAILS_NOT_ALLOWED",
    "ACCOUNT_ALREADY_LINKED_TO_DIFFERENT_USER",
  ],
  summary: "Links a provider account to the caller: its authorization URL, or at once with an id token.",
  tags: ["social"],
});

export const listUserAccountsContract = defineContract({
  name: "listUserAccounts",
  method: "GET",
  path: "/list-accounts",
  auth: "session",
  response: z.array(accountSummarySchema),
  errors: [],
  summary: "The caller's linked accounts (the password one included), without tokens.",
  notes: "`[{ id, provider, accountId, scopes, … }]`, never tokens.",
  tags: ["social"],
});

export const unlinkAccountContract = defineContract({
  name: "unlinkAccount",
  method: "POST",
  path: "/unlink-account",
  auth: "fresh-session",
  body: z.strictObject({
    providerId: providerIdField,
    accountId: z.string().min(1).max(256).optional(),
  }),
  response: statusTrueSchema,
  errors: ["ACCOUNT_NOT_FOUND", "FAILED_TO_UNLINK_LAST_ACCOUNT"],
  summary: "Removes one of the caller's linked accounts, unless it is their last way in.",
  tags: ["social"],
});

export const getAccessTokenContract = defineContract({
  name: "getAccessToken",
  method: "POST",
  path: "/get-access-token",
  // Optional: server code may name a `userId` instead of a session; over HTTP a session is needed.
  auth: "optional",
  httpCredentials: ["session"],
  body: tokenRequestBody,
  response: accessTokenResultSchema,
  errors: [
    "UNAUTHORIZED",
    "USER_ID_OR_SESSION_REQUIRED",
    "PROVIDER_NOT_SUPPORTED",
    "ACCOUNT_NOT_FOUND",
    "FAILED_TO_GET_ACCESS_TOKEN",
  ],
  summary: "The caller's access token for a provider, refreshed first when it is about to expire.",
  notes: "Refreshed when it expires in < 5 s; `userId` from server code only.",
  tags: ["social"],
});

export const refreshTokenContract = defineContract({
  name: "refreshToken",
  method: "POST",
  path: "/refresh-token",
  // Optional, as /get-access-token.
  auth: "optional",
  httpCredentials: ["session"],
  body: tokenRequestBody,
  response: refreshTokenResultSchema,
  errors: [
    "UNAUTHORIZED",
    "USER_ID_OR_SESSION_REQUIRED",
    "PROVIDER_NOT_SUPPORTED",
    "ACCOUNT_NOT_FOUND",
    "TOKEN_REFRESH_NOT_SUPPORTED",
    "FAILED_TO_REFRESH_ACCESS_TOKEN",
  ],
  summary: "Refreshes the caller's tokens for a provider at the provider and answers them.",
  notes: "`userId` from server code only.",
  tags: ["social"],
});

export const accountInfoContract = defineContract({
  name: "accountInfo",
  method: "POST",
  path: "/account-info",
  auth: "session",
  // `accountId`: the provider's account id, as /list-accounts shows it.
  body: z.strictObject({ accountId: z.string().min(1).max(256) }),
  response: accountInfoResultSchema,
  errors: [
    "ACCOUNT_NOT_FOUND",
    "PROVIDER_NOT_SUPPORTED",
    "FAILED_TO_GET_ACCESS_TOKEN",
    "FAILED_TO_GET_USER_INFO",
  ],
  summary: "What the provider says today about one of the caller's linked accounts.",
  notes: "Answers `{ user, data }` from the provider.",
  tags: ["social"],
});
