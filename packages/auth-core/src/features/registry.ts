import type { AnyEndpoint } from "../http/define-endpoint.ts";
import { accountEndpoints } from "./account/index.ts";
import { adminEndpoints } from "./admin/index.ts";
import { apiKeyEndpoints } from "./api-key/index.ts";
import { deletionEndpoints } from "./deletion/index.ts";
import { emailPasswordEndpoints } from "./email-password/index.ts";
import { generalEndpoints } from "./general/index.ts";
import { organizationEndpoints } from "./organization/index.ts";
import { passwordEndpoints } from "./password/index.ts";
import { sessionEndpoints } from "./session/index.ts";
import { socialEndpoints } from "./social/index.ts";
import { twoFactorEndpoints } from "./two-factor/index.ts";
import { verificationEndpoints } from "./verification/index.ts";

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
