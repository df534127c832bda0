import type { AuthContext } from "../../context.ts";
import type { ObjectId } from "../../db/ids.ts";
import { recordAuditEvent } from "../admin/index.ts";
import { addMemberWithinLimit, findOrganization, findUser } from "../organization/index.ts";
import { emailDomainOf } from "./rules.ts";
import { findVerifiedDomainRow } from "./store.ts";

/**
 * Auto-join (docs/security.md "Verified domains"): once a user's address is verified — a mailed
 * link or code, a provider that verified it at sign-up — and its domain is verified by an
 * organization with auto-join on, the user becomes a member with the domain's role. Never on an
 * unverified address: anyone may type any address. Through the members' own insert (its limit
 * holds); an existing membership is left as it is. createAuth hands it to `onEmailProven`.
 */
export async function joinVerifiedDomainOrganization(auth: AuthContext, userId: ObjectId): Promise<void> {
  const user = await findUser(auth, userId);
  if (!user?.emailVerified) return;
  const domain = emailDomainOf(user.email);
  const row = domain === null ? null : await findVerifiedDomainRow(auth.collections, domain);
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
