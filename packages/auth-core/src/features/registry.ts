import type { AnyEndpoint } from "../http/define-endpoint.ts";
import { type AccountEndpoint, accountEndpoints } from "./account/endpoints/index.ts";
import { type AdminEndpoint, adminEndpoints } from "./admin/endpoints/index.ts";
import { type ApiKeyEndpoint, apiKeyEndpoints } from "./api-key/endpoints/index.ts";
import { type DeletionEndpoint, deletionEndpoints } from "./deletion/endpoints/index.ts";
import { type EmailPasswordEndpoint, emailPasswordEndpoints } from "./email-password/endpoints/index.ts";
import { type GeneralEndpoint, generalEndpoints } from "./general/endpoints/index.ts";
import { type OrganizationEndpoint, organizationEndpoints } from "./organization/endpoints/index.ts";
import { type PasswordEndpoint, passwordEndpoints } from "./password/endpoints/index.ts";
import { type SessionEndpoint, sessionEndpoints } from "./session/endpoints/index.ts";
import { type SocialEndpoint, socialEndpoints } from "./social/endpoints/index.ts";
import { type TwoFactorEndpoint, twoFactorEndpoints } from "./two-factor/endpoints/index.ts";
import { type UserExportEndpoint, userExportEndpoints } from "./user-export/endpoints/index.ts";
import { type VerificationEndpoint, verificationEndpoints } from "./verification/endpoints/index.ts";

/** Every core endpoint. One list drives the router, `auth.api`, the client SDK and the docs. */
export const coreEndpoints: readonly AnyEndpoint[] = [
  ...generalEndpoints,
  ...sessionEndpoints,
  ...emailPasswordEndpoints,
  ...verificationEndpoints,
  ...passwordEndpoints,
  ...accountEndpoints,
  ...deletionEndpoints,
  ...userExportEndpoints,
  ...twoFactorEndpoints,
  ...adminEndpoints,
  ...apiKeyEndpoints,
  ...organizationEndpoints,
  ...socialEndpoints,
];

/** Every core endpoint with its types: the keys and signatures of `auth.api`. */
export type CoreEndpoint =
  | AccountEndpoint
  | AdminEndpoint
  | ApiKeyEndpoint
  | DeletionEndpoint
  | EmailPasswordEndpoint
  | GeneralEndpoint
  | OrganizationEndpoint
  | PasswordEndpoint
  | SessionEndpoint
  | SocialEndpoint
  | TwoFactorEndpoint
  | UserExportEndpoint
  | VerificationEndpoint;

/** Every `auth.api` method name: typos fail to compile, and `auth.api.<name>` is never undefined. */
export type CoreEndpointName = CoreEndpoint["name"];
