import type { z } from "zod";
import type { AuthContext } from "../../context.ts";
import type { registerSsoProviderContract, SsoProviderTest } from "../../contracts/sso.ts";
import type { SsoProvider } from "../../contracts/sso-models.ts";
import type { ObjectId } from "../../db/ids.ts";
import type { ErrorCode } from "../../errors/catalogue.ts";
import { granted, type Outcome, refused } from "../../errors/refusal.ts";
import type { SessionWithUser } from "../session/index.ts";
import { auditConnectionChange } from "./audit.ts";
import { registerConnection, removeConnection, testConnection } from "./connections.ts";
import type { SsoManager } from "./manager.ts";
import { findManagedProvider, resolveManagedOrganization, toSsoProvider } from "./service.ts";

/**
 * The connection changes the endpoints and the operator (`tessera orgs sso`, operator-sso.ts) both
 * make: access, the change, its audit row — one path, so every rule holds in both. A refusal is
 * a value, answered by the caller (the endpoint, or the operator's API).
 */

type RegisterBody = z.output<NonNullable<(typeof registerSsoProviderContract)["body"]>>;
/** The request facts of the audit row (an operator has none). */
type AuditContext = { ip: string | null; headers: Headers; session: SessionWithUser | null };

/** Who the new connection names as its creator: the user, a setup link's sender, or none (operator). */
function creatorOf(manager: SsoManager): ObjectId | null {
  if (manager.kind === "member") return manager.caller.user._id;
  return manager.kind === "setup-link" ? manager.scope.createdBy : null;
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
  const outcome = result.ok ? { passed: result.value } : { failed: result.code };
  await auditConnectionChange(auth, ctx, "organization.sso-test", provider.value, outcome, manager);
  return result.ok ? granted({ success: true, checks: result.value }) : result;
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
  const accountsRemoved = await removeConnection(auth, provider.value);
  if (accountsRemoved === null) return refused("SSO_PROVIDER_NOT_FOUND");
  const details = { accountsRemoved };
  await auditConnectionChange(auth, ctx, "organization.sso-delete", provider.value, details, manager);
  return granted(details);
}
