import type { z } from "zod";
import type { AuthContext } from "../../context.ts";
import type { registerSsoProviderContract, SsoProviderTest } from "../../contracts/sso.ts";
import type { SsoProvider } from "../../contracts/sso-models.ts";
import type { ObjectId } from "../../db/ids.ts";
import { AuthError } from "../../errors/auth-error.ts";
import { answerRefusal } from "../../errors/refusal.ts";
import type { SessionWithUser } from "../session/index.ts";
import { registerConnection, removeConnection, testConnection } from "./connections.ts";
import { auditConnectionChange } from "./endpoints/audit.ts";
import type { SsoManager } from "./manager.ts";
import { findManagedProvider, resolveManagedOrganization, toSsoProvider } from "./service.ts";

/**
 * The connection changes the endpoints and the operator (`tessera orgs sso`, operator-sso.ts) both
 * make: access, the change, its audit row — one path, so every rule holds in both. Refusals throw
 * their catalogue error.
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
): Promise<SsoProvider> {
  const organizationId = answerRefusal(await resolveManagedOrganization(auth, manager, body.organizationId));
  const provider = answerRefusal(await registerConnection(auth, organizationId, creatorOf(manager), body));
  await auditConnectionChange(auth, ctx, "organization.sso-register", provider, {}, manager);
  return toSsoProvider(auth, provider);
}

/** "Test this connection", audited passed or not; a failed check throws its catalogue error. */
export async function testManagedConnection(
  auth: AuthContext,
  ctx: AuditContext,
  manager: SsoManager,
  providerId: string,
): Promise<SsoProviderTest> {
  const provider = answerRefusal(await findManagedProvider(auth, manager, providerId));
  const result = await testConnection(auth, provider);
  const outcome = result.ok ? { passed: result.value } : { failed: result.code };
  await auditConnectionChange(auth, ctx, "organization.sso-test", provider, outcome, manager);
  return { success: true, checks: answerRefusal(result) };
}

/** Deletes the connection and its users' accounts (connections.ts removeConnection). */
export async function removeManagedConnection(
  auth: AuthContext,
  ctx: AuditContext,
  manager: SsoManager,
  providerId: string,
): Promise<{ accountsRemoved: number }> {
  const provider = answerRefusal(await findManagedProvider(auth, manager, providerId));
  const accountsRemoved = await removeConnection(auth, provider);
  if (accountsRemoved === null) throw new AuthError("SSO_PROVIDER_NOT_FOUND");
  await auditConnectionChange(auth, ctx, "organization.sso-delete", provider, { accountsRemoved }, manager);
  return { accountsRemoved };
}
