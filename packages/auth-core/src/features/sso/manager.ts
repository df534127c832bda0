import type { AuthContext } from "../../context.ts";
import type { ObjectId } from "../../db/ids.ts";
import type { CookieJar } from "../../http/cookie-jar.ts";
import { auditSource, type OrganizationActor } from "../admin/index.ts";
import type { SessionWithUser } from "../session/index.ts";
import { readSetupScope, type SetupScope } from "./setup-link.ts";

/**
 * Who manages connections in a request: a signed-in owner or admin (checked per organization in
 * service.ts), or, with no session, the holder of a setup cookie, confined to its one organization
 * (setup-link.ts). A session wins over a setup cookie sent beside it.
 */
export type SsoManager =
  | { kind: "member"; caller: SessionWithUser }
  | { kind: "setup-link"; scope: SetupScope }
  /** `tessera orgs sso` (operator-sso.ts): the organization the operator named, nothing else. */
  | { kind: "operator"; actor: string; organizationId: ObjectId };

/** The one organization a setup link's holder or an operator manages. */
export function scopedOrganization(manager: Exclude<SsoManager, { kind: "member" }>): ObjectId {
  return manager.kind === "setup-link" ? manager.scope.organizationId : manager.organizationId;
}

/** The manager of the request; null with neither a session nor a live setup cookie (endpoints: 401). */
export async function resolveSsoManager(ctx: {
  auth: AuthContext;
  session: SessionWithUser | null;
  cookies: CookieJar;
}): Promise<SsoManager | null> {
  if (ctx.session) return { kind: "member", caller: ctx.session };
  const scope = await readSetupScope(ctx.auth, ctx.cookies);
  return scope ? { kind: "setup-link", scope } : null;
}

/** Who the audit row names: the user, or `setup-link:<link id>` (no account behind it). */
export function auditActorOf(
  ctx: { ip: string | null; headers: Headers; session: SessionWithUser | null },
  manager: SsoManager | null,
): OrganizationActor {
  const source = auditSource(ctx);
  if (manager?.kind === "setup-link")
    return { ...source, actor: `setup-link:${manager.scope.linkId}`, userId: null };
  if (manager?.kind === "operator") return { ...source, actor: manager.actor, userId: null };
  return { ...source, userId: ctx.session?.user._id ?? null };
}
