import { registerSsoProviderContract } from "../../../contracts/sso.ts";
import type { SsoProvider } from "../../../contracts/sso-models.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { registerManagedConnection } from "../manage.ts";
import { requireSsoManager } from "./manager-guard.ts";

/**
 * POST /sso/register (Better Auth's path and payload): an owner or admin adds a connection, or a
 * setup link's holder to its organization (the link's sender is then the connection's creator).
 */
export const registerSsoProvider = defineEndpoint(registerSsoProviderContract, {
  async handler(ctx): Promise<SsoProvider> {
    return answerRefusal(
      await registerManagedConnection(ctx.auth, ctx, await requireSsoManager(ctx), ctx.body),
    );
  },
});
