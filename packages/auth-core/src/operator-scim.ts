/**
 * An operator's SCIM connection work for `@tessera/auth-core/operator` (`tessera orgs scim`): the
 * token endpoints' own service (features/scim/tokens), so a token is made, shown once, stored as its
 * hash and revoked exactly as from the Remix page, with the operator recorded as actor.
 */
import type { GeneratedScimToken, ScimConnection } from "./contracts/scim-tokens.ts";
import { scimProviderIdField } from "./contracts/scim-tokens.ts";
import type { Auth } from "./create-auth.ts";
import type { OrganizationDoc } from "./db/documents.ts";
import { AuthError } from "./errors/auth-error.ts";
import { generateScimToken, listScimConnections, revokeScimToken } from "./features/scim/index.ts";
import type { DomainActor } from "./features/sso-domains/index.ts";

export type { GeneratedScimToken, ScimConnection };

/** Refusals are AuthErrors (catalogue code and message), as from auth.api. */
export function createOperatorScim(auth: Auth, actor: string) {
  const context = auth.context;
  const by: DomainActor = { userId: null, actor, ip: null, userAgent: null };
  /** The endpoints' own rule for a connection name: VALIDATION_ERROR naming it. */
  const checkedProviderId = (providerId: string): string => {
    const parsed = scimProviderIdField.safeParse(providerId);
    if (!parsed.success)
      throw new AuthError("VALIDATION_ERROR", {
        message: `Invalid request: providerId: ${parsed.error.issues[0]!.message}`,
      });
    return parsed.data;
  };
  return {
    list(org: OrganizationDoc): Promise<ScimConnection[]> {
      return listScimConnections(context, org._id);
    },
    /** A new token for the connection; an existing one's token is replaced (the old stops at once). */
    add(org: OrganizationDoc, providerId: string): Promise<GeneratedScimToken> {
      return generateScimToken(context, org._id, checkedProviderId(providerId), by);
    },
    async remove(org: OrganizationDoc, providerId: string): Promise<{ providerId: string }> {
      const removed = await revokeScimToken(context, org._id, checkedProviderId(providerId), by);
      if (!removed.ok) throw new AuthError(removed.code);
      return { providerId };
    },
  };
}
