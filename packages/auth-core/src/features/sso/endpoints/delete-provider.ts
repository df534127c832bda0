import { deleteSsoProviderContract } from "../../../contracts/sso.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { removeConnection } from "../connections.ts";
import { findManagedProvider } from "../service.ts";
import { auditConnectionChange } from "./audit.ts";

/** POST /sso/delete-provider: the connection and its users' accounts go (connections.ts removeConnection). */
export const deleteSsoProvider = defineEndpoint(deleteSsoProviderContract, {
  async handler(ctx): Promise<{ success: true }> {
    const { auth } = ctx;
    const provider = answerRefusal(await findManagedProvider(auth, ctx.session!, ctx.body.providerId));
    const accountsRemoved = await removeConnection(auth, provider);
    if (accountsRemoved === null) throw new AuthError("SSO_PROVIDER_NOT_FOUND");
    await auditConnectionChange(auth, ctx, "organization.sso-delete", provider, { accountsRemoved });
    return { success: true };
  },
});
