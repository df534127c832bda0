import { registerSsoProviderContract } from "../../../contracts/sso.ts";
import type { SsoProvider } from "../../../contracts/sso-models.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { registerConnection } from "../connections.ts";
import { resolveManagedOrganization, toSsoProvider } from "../service.ts";
import { auditConnectionChange } from "./audit.ts";

/** POST /sso/register (Better Auth's path and payload): an owner or admin adds a connection. */
export const registerSsoProvider = defineEndpoint(registerSsoProviderContract, {
  async handler(ctx): Promise<SsoProvider> {
    const { auth, body } = ctx;
    const caller = ctx.session!;
    const organizationId = answerRefusal(await resolveManagedOrganization(auth, caller, body.organizationId));
    const provider = answerRefusal(await registerConnection(auth, organizationId, caller.user._id, body));
    await auditConnectionChange(auth, ctx, "organization.sso-register", provider);
    return toSsoProvider(auth, provider);
  },
});
