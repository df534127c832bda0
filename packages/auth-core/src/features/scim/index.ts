/**
 * The face of scim (docs/security.md "SCIM"): the SCIM 2.0 service provider create-auth.ts mounts
 * under the base path (endpoints for its tokens: tokens/endpoints/, registered by features/registry.ts).
 */
import type { AuthContext } from "../../context.ts";
import type { MountedProtocol } from "../../http/handler.ts";
import type { RateLimiter } from "../../http/rate-limit.ts";
import { createGroupsServer } from "./endpoints/groups.ts";
import { createScimProtocol } from "./endpoints/serve.ts";
import { createUsersServer } from "./endpoints/users.ts";

/** `tessera orgs scim` (operator-scim.ts): the token endpoints' own service. */
export { generateScimToken, listScimConnections, revokeScimToken } from "./tokens/service.ts";

export function mountScim(auth: AuthContext, limiter: RateLimiter): MountedProtocol {
  const users = createUsersServer(auth);
  const groups = createGroupsServer(auth);
  return createScimProtocol(
    auth,
    limiter,
    async (caller, method, path, request) =>
      (await users(caller, method, path, request)) ?? groups(caller, method, path, request),
  );
}
