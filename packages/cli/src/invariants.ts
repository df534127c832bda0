import {
  type CheckedCollection,
  clearActiveOrganizations,
  deleteOrganizationRows,
  deleteRowsOfMissingUsers,
  type OrphanRows,
  type RemovableCollection,
  readStoredRows,
} from "@tessera/auth-core/operator";
import type { Finding } from "./finding.ts";
import { checkUserInvariants } from "./invariants-users.ts";

export type { Finding } from "./finding.ts";

/** The Tessera database, as the operator API takes it. */
type Db = Parameters<typeof readStoredRows>[0];

/**
 * The data's invariants, checked (and with `fix`, repaired where that is safe) through the
 * collections' owners (`@tessera/auth-core/operator`: readStoredRows, and each repair through the
 * owner's write): rows of users, organizations and teams that no longer exist, organizations without
 * an owner, active organizations on sessions of non-members, emails that differ only in case.
 * `tessera doctor` runs it; tests import it to check a database after a crash or a race.
 *
 * After a crash in the middle of a deletion (docs/scale.md "Crash in the middle"), the orphans it
 * left are counted by the checks below and the deletion itself by `unfinished-deletions`:
 * `tessera cleanup` (auth.cleanup(), hourly in the standalone server) finishes it, --fix only
 * deletes the orphans. An address claim and credential account left by a sign-up cut before its
 * user row are removed by the next sign-up with the address (or --fix).
 */
export interface InvariantOptions {
  fix?: boolean;
  /** The organization role that owns (organization.creatorRole). @default "owner" */
  creatorRole?: string;
}

const BATCH = 1000;

/** The values of `field` in `collection` whose parent (`_id` in `parent`) is missing. */
async function missingParents(
  db: Db,
  collection: CheckedCollection,
  field: string,
  parent: CheckedCollection,
): Promise<unknown[]> {
  const values = await readStoredRows(db, collection).distinctValues(field);
  const missing: unknown[] = [];
  for (let start = 0; start < values.length; start += BATCH) {
    const batch = values.slice(start, start + BATCH);
    // Team ids on invitations are stored as hex strings: findPresentIds reads them as ObjectIds.
    const present = await readStoredRows(db, parent).findPresentIds(batch);
    for (const value of batch) if (!present.has(String(value))) missing.push(value);
  }
  return missing;
}

/** The collections whose rows a repair deletes through the core's owners (deleteOrganizationRows). */
const ORGANIZATION_ROWS = new Set<string>(["members", "invitations", "teams", "teamMembers"]);

export async function checkDataInvariants(db: Db, options: InvariantOptions = {}): Promise<Finding[]> {
  const fix = options.fix === true;
  const creatorRole = options.creatorRole ?? "owner";
  const findings: Finding[] = [];

  async function orphans(
    check: string,
    description: string,
    collection: CheckedCollection,
    field: string,
    parent: CheckedCollection,
  ) {
    const missing = await missingParents(db, collection, field, parent);
    const count =
      missing.length === 0 ? 0 : await readStoredRows(db, collection).countWhereIn(field, missing);
    let fixed = 0;
    if (fix && count > 0) {
      // Organization rows go through their owner: a member row or an invitation gone changes its
      // organization's listing (get-full-organization), and the owner bumps it.
      const owned = { collection, field } as OrphanRows;
      fixed = ORGANIZATION_ROWS.has(collection)
        ? await deleteOrganizationRows(db, owned, missing)
        : await deleteRowsOfMissingUsers(db, collection as RemovableCollection, missing);
    }
    findings.push({
      check,
      description,
      count,
      fixable: true,
      fixed,
      examples: missing.slice(0, 3).map(String),
    });
  }

  await orphans(
    "sessions-of-missing-users",
    "sessions of users that no longer exist",
    "sessions",
    "userId",
    "users",
  );
  await orphans(
    "accounts-of-missing-users",
    "accounts of users that no longer exist",
    "accounts",
    "userId",
    "users",
  );
  await orphans(
    "members-of-missing-users",
    "memberships of users that no longer exist",
    "members",
    "userId",
    "users",
  );
  await orphans(
    "api-keys-of-missing-users",
    "API keys of users that no longer exist",
    "apiKeys",
    "userId",
    "users",
  );
  await orphans(
    "two-factor-of-missing-users",
    "two-factor rows of users that no longer exist",
    "twoFactors",
    "userId",
    "users",
  );
  await orphans(
    "passkeys-of-missing-users",
    "passkeys of users that no longer exist",
    "passkeys",
    "userId",
    "users",
  );
  await orphans(
    "team-members-of-missing-users",
    "team memberships of users that no longer exist",
    "teamMembers",
    "userId",
    "users",
  );
  await orphans(
    "members-of-missing-organizations",
    "members of deleted organizations",
    "members",
    "organizationId",
    "organizations",
  );
  await orphans(
    "invitations-of-missing-organizations",
    "invitations of deleted organizations",
    "invitations",
    "organizationId",
    "organizations",
  );
  await orphans(
    "teams-of-missing-organizations",
    "teams of deleted organizations",
    "teams",
    "organizationId",
    "organizations",
  );
  await orphans(
    "team-members-of-missing-teams",
    "team memberships of deleted teams",
    "teamMembers",
    "teamId",
    "teams",
  );
  findings.push(await invitationsToMissingTeams(db, fix));

  findings.push(await unfinishedDeletions(db));
  findings.push(await organizationsWithoutOwner(db, creatorRole));
  findings.push(await activeOrganizationsOfNonMembers(db, fix));
  findings.push(...(await checkUserInvariants(db, fix)));
  return findings;
}

/** `teamId` on an invitation is a comma separated list of team ids. */
async function invitationsToMissingTeams(db: Db, fix: boolean): Promise<Finding> {
  const invitations = [];
  for await (const invitation of readStoredRows(db, "invitations").scan(
    { status: "pending", teamId: { $ne: null } },
    ["teamId", "organizationId"],
  ))
    invitations.push(invitation);
  const teamIds = new Set(invitations.flatMap((invitation) => String(invitation.teamId).split(",")));
  const ids = [...teamIds].map((id) => id.trim());
  const present = await readStoredRows(db, "teams").findPresentIds(ids);
  const brokenInvitations = invitations.filter((invitation) =>
    String(invitation.teamId)
      .split(",")
      .some((id) => !present.has(id.trim().toLowerCase())),
  );
  const broken = brokenInvitations.map((invitation) => invitation._id);
  let fixed = 0;
  if (fix && broken.length > 0) {
    fixed = await deleteOrganizationRows(
      db,
      { collection: "invitations", field: "_id", pendingOnly: true },
      broken,
    );
  }
  return {
    check: "invitations-to-missing-teams",
    description: "pending invitations to teams that no longer exist",
    count: broken.length,
    fixable: true,
    fixed,
    examples: broken.slice(0, 3).map(String),
  };
}

/** Journal entries (`pendingDeletions`) of deletions a crash cut short: `tessera cleanup` finishes them. */
async function unfinishedDeletions(db: Db): Promise<Finding> {
  const entries = [];
  for await (const entry of readStoredRows(db, "pendingDeletions").scan({}, ["kind", "targetId"]))
    entries.push(entry);
  return {
    check: "unfinished-deletions",
    description:
      "user or organization deletions a crash interrupted (their orphans are counted above): tessera cleanup finishes them",
    count: entries.length,
    fixable: false,
    fixed: 0,
    examples: entries.slice(0, 3).map((entry) => `${entry.kind} ${String(entry.targetId)}`),
  };
}

/** An owner counts only while their user exists. */
async function organizationsWithoutOwner(db: Db, creatorRole: string): Promise<Finding> {
  const ownerRows: { organizationId: string; userId: unknown }[] = [];
  for await (const member of readStoredRows(db, "members").scan({}, ["organizationId", "userId", "role"])) {
    const roles = String(member.role)
      .split(",")
      .map((role) => role.trim());
    if (roles.includes(creatorRole))
      ownerRows.push({ organizationId: String(member.organizationId), userId: member.userId });
  }
  const existing = new Set<string>();
  for (let start = 0; start < ownerRows.length; start += BATCH) {
    const ids = ownerRows.slice(start, start + BATCH).map((row) => row.userId);
    for (const id of await readStoredRows(db, "users").findPresentIds(ids)) existing.add(id);
  }
  const owned = new Set(
    ownerRows.filter((row) => existing.has(String(row.userId))).map((row) => row.organizationId),
  );
  const ownerless: string[] = [];
  for await (const org of readStoredRows(db, "organizations").scan({}, ["slug"])) {
    if (!owned.has(String(org._id))) ownerless.push(String(org.slug ?? org._id));
  }
  return {
    check: "organizations-without-owner",
    description: `organizations where no existing user holds the ${creatorRole} role (make someone owner: tessera orgs set-role)`,
    count: ownerless.length,
    fixable: false,
    fixed: 0,
    examples: ownerless.slice(0, 3),
  };
}

/** Stale: the user is not a member, or the organization is gone. */
async function activeOrganizationsOfNonMembers(db: Db, fix: boolean): Promise<Finding> {
  const organizations = new Set<string>();
  for await (const org of readStoredRows(db, "organizations").scan({}, []))
    organizations.add(String(org._id));
  const members = new Set<string>();
  for await (const member of readStoredRows(db, "members").scan({}, ["organizationId", "userId"])) {
    members.add(`${String(member.organizationId)}|${String(member.userId)}`);
  }
  const stale: string[] = [];
  const sessions = readStoredRows(db, "sessions").scan({ activeOrganizationId: { $ne: null } }, [
    "userId",
    "activeOrganizationId",
  ]);
  for await (const session of sessions) {
    const org = String(session.activeOrganizationId);
    if (!organizations.has(org) || !members.has(`${org}|${String(session.userId)}`))
      stale.push(String(session._id));
  }
  let fixed = 0;
  if (fix && stale.length > 0) fixed = await clearActiveOrganizations(db, stale);
  return {
    check: "active-organizations-of-non-members",
    description: "sessions whose active organization is gone or not their user's",
    count: stale.length,
    fixable: true,
    fixed,
    examples: stale.slice(0, 3),
  };
}
