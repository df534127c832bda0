import type { z } from "zod";
import type { AuthContext } from "../../context.ts";
import type {
  registerSsoProviderContract,
  SsoProviderTest,
  updateSsoProviderContract,
} from "../../contracts/sso.ts";
import type { SsoProvider } from "../../contracts/sso-models.ts";
import type { SsoProviderDoc } from "../../db/documents.ts";
import type { ObjectId } from "../../db/ids.ts";
import type { ErrorCode } from "../../errors/catalogue.ts";
import { granted, type Outcome, refused } from "../../errors/refusal.ts";
import type { SessionWithUser } from "../session/index.ts";
import { auditConnectionChange } from "./audit.ts";
import {
  hasUpdateFields,
  registerConnection,
  removeConnection,
  testConnection,
  updateConnection,
} from "./connections.ts";
import { hasDomainRequiringSso } from "./domains.ts";
import type { SsoManager } from "./manager.ts";
import { findManagedProvider, resolveManagedOrganization, toSsoProvider } from "./service.ts";
import { hasEnabledSsoProvider } from "./store.ts";

/**
 * The connection changes the endpoints and the operator (`tessera orgs sso`, operator-sso.ts) both
 * make: access, the change, its audit row — one path, so every rule holds in both. A refusal is
 * a value, answered by the caller (the endpoint, or the operator's API).
 */

type RegisterBody = z.output<NonNullable<(typeof registerSsoProviderContract)["body"]>>;
type UpdateBody = z.output<NonNullable<(typeof updateSsoProviderContract)["body"]>>;
/** The request facts of the audit row (an operator has none). */
type AuditContext = { ip: string | null; headers: Headers; session: SessionWithUser | null };

/** Who the new connection names as its creator: the user, a setup link's sender, or none (operator). */
function creatorOf(manager: SsoManager): ObjectId | null {
  if (manager.kind === "member") return manager.caller.user._id;
  return manager.kind === "setup-link" ? manager.scope.createdBy : null;
}

/**
 * Whether the organization keeps a way in without this connection: turning off or deleting the last
 * connection turned on while a domain of the organization requires SSO would send the domain's
 * people, all but the owners, to a sign-in that no longer exists (the mirror of sso-domains'
 * SSO_CONNECTION_REQUIRED). Two requests racing past each other can still leave it so; the owners'
 * break-glass sign-in stands either way.
 */
async function keepsAWayIn(auth: AuthContext, provider: SsoProviderDoc): Promise<boolean> {
  if (!provider.enabled) return true;
  if (!(await hasDomainRequiringSso(auth.collections, provider.organizationId))) return true;
  return hasEnabledSsoProvider(auth.collections, provider.organizationId, provider._id);
}

export async function registerManagedConnection(
  auth: AuthContext,
  ctx: AuditContext,
  manager: SsoManager,
  body: RegisterBody,
): Promise<Outcome<SsoProvider, ErrorCode>> {
  const organization = await resolveManagedOrganization(auth, manager, body.organizationId);
  if (!organization.ok) return organization;
  const registered = await registerConnection(auth, organization.value, creatorOf(manager), body);
  if (!registered.ok) return registered;
  await auditConnectionChange(auth, ctx, "organization.sso-register", registered.value, {}, manager);
  return granted(await toSsoProvider(auth, registered.value));
}

/**
 * The given fields only (connections.ts updateConnection), audited with their names. Changed
 * concurrently (or deleted) since it was read: "not found", nothing written.
 */
export async function updateManagedConnection(
  auth: AuthContext,
  ctx: AuditContext,
  manager: SsoManager,
  body: UpdateBody,
): Promise<Outcome<SsoProvider, ErrorCode>> {
  if (!hasUpdateFields(body)) return refused("SSO_NO_UPDATE_FIELDS");
  const current = await findManagedProvider(auth, manager, body.providerId);
  if (!current.ok) return current;
  if (body.enabled === false && !(await keepsAWayIn(auth, current.value)))
    return refused("SSO_LAST_CONNECTION_REQUIRED");
  const updated = await updateConnection(auth, current.value, body);
  if (!updated.ok) return updated;
  if (!updated.value) return refused("SSO_PROVIDER_NOT_FOUND");
  const changed = Object.keys(body).filter((key) => key !== "providerId");
  await auditConnectionChange(auth, ctx, "organization.sso-update", updated.value, { changed }, manager);
  return granted(await toSsoProvider(auth, updated.value));
}

/** "Test this connection", audited passed or not; a failed check is its catalogue code. */
export async function testManagedConnection(
  auth: AuthContext,
  ctx: AuditContext,
  manager: SsoManager,
  providerId: string,
): Promise<Outcome<SsoProviderTest, ErrorCode>> {
  const provider = await findManagedProvider(auth, manager, providerId);
  if (!provider.ok) return provider;
  const result = await testConnection(auth, provider.value);
  const outcome = result.ok ? { passed: result.value.checks } : { failed: result.code };
  await auditConnectionChange(auth, ctx, "organization.sso-test", provider.value, outcome, manager);
  if (!result.ok) return result;
  const { checks, certificateExpiresAt } = result.value;
  return granted({
    success: true,
    checks,
    ...(certificateExpiresAt ? { certificateExpiresAt: certificateExpiresAt.toISOString() } : {}),
  });
}

/** Deletes the connection and its users' accounts (connections.ts removeConnection). */
export async function removeManagedConnection(
  auth: AuthContext,
  ctx: AuditContext,
  manager: SsoManager,
  providerId: string,
): Promise<Outcome<{ accountsRemoved: number }, ErrorCode>> {
  const provider = await findManagedProvider(auth, manager, providerId);
  if (!provider.ok) return provider;
  if (!(await keepsAWayIn(auth, provider.value))) return refused("SSO_LAST_CONNECTION_REQUIRED");
  const accountsRemoved = await removeConnection(auth, provider.value);
  if (accountsRemoved === null) return refused("SSO_PROVIDER_NOT_FOUND");
  const details = { accountsRemoved };
  await auditConnectionChange(auth, ctx, "organization.sso-delete", provider.value, details, manager);
  return granted(details);
}
