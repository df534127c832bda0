import type { AuthContext } from "../../context.ts";
import type { UserDoc } from "../../db/documents.ts";
import { recordAuditEvent } from "../admin/index.ts";
import { addMemberWithinLimit, findOrganization } from "../organization/index.ts";
import { type DomainPolicy, findDomainPolicy } from "./require-sso.ts";

/**
 * Auto-join (docs/security.md "Verified domains"): once a user's address is verified — a mailed
 * link or code, a provider that verified it at sign-up — and its domain is verified by an
 * organization with auto-join on, the user becomes a member with the domain's role. Never on an
 * unverified address: anyone may type any address. Through the members' own insert (its limit
 * holds); an existing membership is left as it is. `user` as stored once its address was proven
 * (createAuth's `onEmailProven`, or a sign-up whose provider or mailed code proved it): no re-read.
 * `policy`: the address's domain policy when the caller already read it (a sign-up's require-SSO check).
 */
export async function joinVerifiedDomainOrganization(
  auth: AuthContext,
  user: Pick<UserDoc, "_id" | "email" | "emailVerified">,
  policy?: DomainPolicy,
): Promise<void> {
  if (!user.emailVerified) return;
  const row = policy === undefined ? await findDomainPolicy(auth, user.email) : policy;
  if (!row?.settings.autoJoin) return;
  if (!(await findOrganization(auth, row.organizationId))) return;
  const { autoJoinRole: role } = row.settings;
  const added = await addMemberWithinLimit(auth, {
    organizationId: row.organizationId,
    userId: user._id,
    role,
    teamId: null,
  });
  if (!added.ok) {
    if (added.reason === "limit")
      auth.options.logger.warn("auto-join skipped: the organization is at its membership limit", {
        organizationId: row.organizationId.toHexString(),
      });
    return;
  }
  await recordAuditEvent(auth, {
    action: "organization.domain-auto-join",
    actorId: null,
    subjectId: user._id,
    details: { organizationId: row.organizationId.toHexString(), domain: row.domain, role },
    ip: null,
    userAgent: null,
  });
}
