import type { AuthContext } from "../../context.ts";
import type { AuditAction } from "../../contracts/admin-fields.ts";
import type { SsoProviderDoc } from "../../db/documents.ts";
import { recordOrganizationChange } from "../admin/index.ts";
import type { SessionWithUser } from "../session/index.ts";
import { auditActorOf, type SsoManager } from "./manager.ts";

/**
 * One audit row per change of a connection (docs/security.md "Single sign-on": every step is
 * audited); through a setup link the actor is `setup-link:<link id>`.
 */
export async function auditConnectionChange(
  auth: AuthContext,
  ctx: { ip: string | null; headers: Headers; session: SessionWithUser | null },
  action: Extract<AuditAction, `organization.sso-${string}`>,
  provider: SsoProviderDoc,
  details: Record<string, unknown> = {},
  manager: SsoManager | null = null,
): Promise<void> {
  const { organizationId, providerId, type } = provider;
  await recordOrganizationChange(auth, action, organizationId, auditActorOf(ctx, manager), {
    providerId,
    type,
    ...details,
  });
}
