import type { AnyEndpoint } from "../../../http/define-endpoint.ts";
import { accountInfo } from "./account-info.ts";
import { oauthCallback } from "./callback.ts";
import { getAccessToken } from "./get-access-token.ts";
import { linkSocial } from "./link-social.ts";
import { listAccounts } from "./list-accounts.ts";
import { refreshToken } from "./refresh-token.ts";
import { signInSocial } from "./sign-in-social.ts";
import { unlinkAccount } from "./unlink-account.ts";

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
