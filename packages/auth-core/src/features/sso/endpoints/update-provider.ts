import { updateSsoProviderContract } from "../../../contracts/sso.ts";
import type { SsoProvider } from "../../../contracts/sso-models.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { auditConnectionChange } from "../audit.ts";
import { hasUpdateFields, updateConnection } from "../connections.ts";
import { findManagedProvider, toSsoProvider } from "../service.ts";
import { requireSsoManager } from "./manager-guard.ts";

/**
 * POST /sso/update-provider: the given fields only. Changed concurrently (or deleted) since it was
 * read: "not found", nothing written.
 */
export const updateSsoProvider = defineEndpoint(updateSsoProviderContract, {
  async handler(ctx): Promise<SsoProvider> {
    const { auth, body } = ctx;
    // Who calls first: without a session or setup cookie the answer is 401, whatever the body.
    const manager = await requireSsoManager(ctx);
    if (!hasUpdateFields(body)) throw new AuthError("SSO_NO_UPDATE_FIELDS");
    const current = answerRefusal(await findManagedProvider(auth, manager, body.providerId));
    const updated = answerRefusal(await updateConnection(auth, current, body));
    if (!updated) throw new AuthError("SSO_PROVIDER_NOT_FOUND");
    const changed = Object.keys(body).filter((key) => key !== "providerId");
    await auditConnectionChange(auth, ctx, "organization.sso-update", updated, { changed }, manager);
    return toSsoProvider(auth, updated);
  },
});
