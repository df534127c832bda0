import type { AnyEndpoint } from "../http/define-endpoint.ts";
import { emailPasswordEndpoints } from "./email-password/index.ts";
import { generalEndpoints } from "./general/index.ts";
import { sessionEndpoints } from "./session/index.ts";

/** Every core endpoint. One list drives the router, `auth.api`, the client SDK and the docs. */
export const coreEndpoints: readonly AnyEndpoint[] = [
  ...generalEndpoints,
  ...sessionEndpoints,
  ...emailPasswordEndpoints,
];
