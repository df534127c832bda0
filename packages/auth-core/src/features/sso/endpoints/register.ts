import { registerSsoProviderContract } from "../../../contracts/sso.ts";
import type { SsoProvider } from "../../../contracts/sso-models.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { registerManagedConnection } from "../manage.ts";
import { resolveSsoManager } from "../manager.ts";

/**
 * POST /sso/register (Better Auth's path and payload): an owner or admin adds a connection, or a
 * setup link's holder to its organization (the link's sender is then the connection's creator).
 */
export const registerSsoProvider = defineEndpoint(registerSsoProviderContract, {
  async handler(ctx): Promise<SsoProvider> {
    return registerManagedConnection(ctx.auth, ctx, await resolveSsoManager(ctx), ctx.body);
  },
});
