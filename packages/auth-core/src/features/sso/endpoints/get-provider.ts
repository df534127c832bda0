import { getSsoProviderContract } from "../../../contracts/sso.ts";
import type { SsoProvider } from "../../../contracts/sso-models.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { resolveSsoManager } from "../manager.ts";
import { findManagedProvider, toSsoProvider } from "../service.ts";

/** GET /sso/get-provider?providerId=: one connection, no secrets. */
export const getSsoProvider = defineEndpoint(getSsoProviderContract, {
  async handler(ctx): Promise<SsoProvider> {
    const provider = answerRefusal(
      await findManagedProvider(ctx.auth, await resolveSsoManager(ctx), ctx.query.providerId),
    );
    return toSsoProvider(ctx.auth, provider);
  },
});
