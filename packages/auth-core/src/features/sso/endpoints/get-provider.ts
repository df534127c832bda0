import { getSsoProviderContract } from "../../../contracts/sso.ts";
import type { SsoProvider } from "../../../contracts/sso-models.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { findManagedProvider, toSsoProvider } from "../service.ts";
import { requireSsoManager } from "./manager-guard.ts";

/** GET /sso/get-provider?providerId=: one connection, no secrets. */
export const getSsoProvider = defineEndpoint(getSsoProviderContract, {
  async handler(ctx): Promise<SsoProvider> {
    const provider = answerRefusal(
      await findManagedProvider(ctx.auth, await requireSsoManager(ctx), ctx.query.providerId),
    );
    return toSsoProvider(ctx.auth, provider);
  },
});
