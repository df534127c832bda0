import type { AnyEndpoint } from "../../http/define-endpoint.ts";
import { accountInfo } from "./endpoints/account-info.ts";
import { oauthCallback } from "./endpoints/callback.ts";
import { getAccessToken } from "./endpoints/get-access-token.ts";
import { linkSocial } from "./endpoints/link-social.ts";
import { listAccounts } from "./endpoints/list-accounts.ts";
import { refreshToken } from "./endpoints/refresh-token.ts";
import { signInSocial } from "./endpoints/sign-in-social.ts";
import { unlinkAccount } from "./endpoints/unlink-account.ts";

const socialList = [
  signInSocial,
  oauthCallback,
  linkSocial,
  listAccounts,
  unlinkAccount,
  getAccessToken,
  refreshToken,
  accountInfo,
] as const;
export const socialEndpoints = socialList as unknown as AnyEndpoint[];
/** The `auth.api` method names of this feature. */
export type SocialEndpointName = (typeof socialList)[number]["name"];
