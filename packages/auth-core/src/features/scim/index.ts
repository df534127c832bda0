/**
 * The face of scim (docs/security.md "SCIM"): the SCIM 2.0 service provider create-auth.ts mounts
 * under the base path (endpoints for its tokens: tokens/endpoints/, registered by features/registry.ts).
 */
import type { AuthContext } from "../../context.ts";
import type { MountedProtocol } from "../../http/handler.ts";
import { createScimProtocol } from "./endpoints/serve.ts";
import { createUsersServer } from "./endpoints/users.ts";

export function mountScim(auth: AuthContext): MountedProtocol {
  return createScimProtocol(auth, createUsersServer(auth));
}
