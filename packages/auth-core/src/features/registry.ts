import type { AnyEndpoint } from "../http/define-endpoint.ts";
import { type AccountEndpointName, accountEndpoints } from "./account/index.ts";
import { type AdminEndpointName, adminEndpoints } from "./admin/index.ts";
import { type ApiKeyEndpointName, apiKeyEndpoints } from "./api-key/index.ts";
import { type DeletionEndpointName, deletionEndpoints } from "./deletion/index.ts";
import { type EmailPasswordEndpointName, emailPasswordEndpoints } from "./email-password/index.ts";
import { type GeneralEndpointName, generalEndpoints } from "./general/index.ts";
import { type OrganizationEndpointName, organizationEndpoints } from "./organization/index.ts";
import { type PasswordEndpointName, passwordEndpoints } from "./password/index.ts";
import { type SessionEndpointName, sessionEndpoints } from "./session/index.ts";
import { type SocialEndpointName, socialEndpoints } from "./social/index.ts";
import { type TwoFactorEndpointName, twoFactorEndpoints } from "./two-factor/index.ts";
import { type VerificationEndpointName, verificationEndpoints } from "./verification/index.ts";

/** Every core endpoint. One list drives the router, `auth.api`, the client SDK and the docs. */
export const coreEndpoints: readonly AnyEndpoint[] = [
  ...generalEndpoints,
  ...sessionEndpoints,
  ...emailPasswordEndpoints,
  ...verificationEndpoints,
  ...passwordEndpoints,
  ...accountEndpoints,
  ...deletionEndpoints,
  ...twoFactorEndpoints,
  ...adminEndpoints,
  ...apiKeyEndpoints,
  ...organizationEndpoints,
  ...socialEndpoints,
];

/** Every `auth.api` method name: typos fail to compile, and `auth.api.<name>` is never undefined. */
export type CoreEndpointName =
  | AccountEndpointName
  | AdminEndpointName
  | ApiKeyEndpointName
  | DeletionEndpointName
  | EmailPasswordEndpointName
  | GeneralEndpointName
  | OrganizationEndpointName
  | PasswordEndpointName
  | SessionEndpointName
  | SocialEndpointName
  | TwoFactorEndpointName
  | VerificationEndpointName;
