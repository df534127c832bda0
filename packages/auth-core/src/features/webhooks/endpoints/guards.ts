import type { AuthContext } from "../../../context.ts";
import type { WebhookEndpointDoc } from "../../../db/documents.ts";
import { type ObjectId, parseId } from "../../../db/ids.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { requireAdminPermission } from "../../admin/index.ts";
import { findMember, findOrganization, holdsRole } from "../../organization/index.ts";
import type { SessionWithUser } from "../../session/index.ts";
import { findEndpoint } from "../service.ts";

/** The organization roles that manage its webhooks (docs/security.md "Webhooks"). */
const MANAGING_ROLES = ["owner", "admin"];

/**
 * The scope a webhook call acts in, checked before anything is read: no `organizationId`, the
 * app-wide endpoints, for callers the admin area grants `webhook: ["manage"]`; an organization's id,
 * that organization's endpoints, for its owners and admins (and the app-wide managers). Every later read and write filters on
 * the scope, so an endpoint of another scope is "not found" (the IDOR rule, docs/security.md).
 */
export async function requireWebhookScope(
  auth: AuthContext,
  caller: SessionWithUser | null,
  organizationId: string | undefined,
): Promise<ObjectId | null> {
  if (!auth.options.webhooks.enabled) throw new AuthError("WEBHOOKS_NOT_ENABLED");
  if (!caller) throw new AuthError("UNAUTHORIZED");
  if (organizationId === undefined) {
    requireAdminPermission(auth, caller, { webhook: ["manage"] });
    return null;
  }
  const id = parseId(organizationId);
  const organization = id ? await findOrganization(auth, id) : null;
  if (!id || !organization) throw new AuthError("ORGANIZATION_NOT_FOUND");
  const member = await findMember(auth, id, caller.user._id);
  if (member && MANAGING_ROLES.some((role) => holdsRole(member.role, role))) return id;
  // Who manages the app-wide endpoints manages every organization's too (the CLI's operator included).
  if (mayManageAppWebhooks(auth, caller)) return id;
  throw new AuthError(member ? "WEBHOOK_MANAGE_NOT_ALLOWED" : "NOT_A_MEMBER_OF_ORGANIZATION");
}

function mayManageAppWebhooks(auth: AuthContext, caller: SessionWithUser): boolean {
  try {
    requireAdminPermission(auth, caller, { webhook: ["manage"] });
    return true;
  } catch (error) {
    if (error instanceof AuthError) return false;
    throw error;
  }
}

/** The scope's endpoint named by the call; 404 for any other (another scope's included). */
export async function requireScopedEndpoint(
  auth: AuthContext,
  scope: ObjectId | null,
  endpointId: string,
): Promise<WebhookEndpointDoc> {
  const id = parseId(endpointId);
  const endpoint = id ? await findEndpoint(auth, id, scope) : null;
  if (!endpoint) throw new AuthError("WEBHOOK_ENDPOINT_NOT_FOUND");
  return endpoint;
}
