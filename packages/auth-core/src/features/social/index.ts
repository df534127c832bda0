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
export const socialEndpoints: readonly AnyEndpoint[] = socialList;
/** The endpoints of this feature, with their types (the keys and signatures of `auth.api`). */
export type SocialEndpoint = (typeof socialList)[number];
