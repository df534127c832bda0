import {
  type CheckedCollection,
  checkEmailClaims,
  checkUserTimeline,
  clearActiveOrganizations,
  deleteOrganizationRows,
  deleteRowsOfMissingUsers,
  type OrphanRows,
  type RemovableCollection,
  readStoredRows,
} from "@tessera/auth-core/operator";
import { type Db, ObjectId } from "mongodb";

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
export interface Finding {
  /** Stable id, e.g. "sessions-of-missing-users". */
  check: string;
  description: string;
  /** Rows (or groups) found. */
  count: number;
  /** Whether --fix repairs it (deletes or clears the rows); the others need a person's decision. */
  fixable: boolean;
  /** Rows repaired by this run (0 without fix). */
  fixed: number;
  /** A few ids or values, for a look. */
  examples: string[];
}

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
    const ids = batch
      .map((value) => (typeof value === "string" ? toObjectId(value) : value))
      .filter((id): id is ObjectId => id instanceof Object);
    const present = await readStoredRows(db, parent).findPresentIds(ids);
    for (const value of batch) if (!present.has(String(value))) missing.push(value);
  }
  return missing;
}

/** Team ids on invitations are stored as hex strings: looked up as ObjectIds. */
function toObjectId(value: string): ObjectId | null {
  return /^[0-9a-f]{24}$/i.test(value) ? new ObjectId(value) : null;
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
  findings.push(...(await emailClaims(db, fix)));
  findings.push(...(await userTimeline(db, fix)));
  findings.push(await duplicateEmails(db));
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
  const ids = [...teamIds].map((id) => toObjectId(id.trim())).filter((id) => id !== null);
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
  const ownerRows: { organizationId: string; userId: ObjectId }[] = [];
  for await (const member of readStoredRows(db, "members").scan({}, ["organizationId", "userId", "role"])) {
    const roles = String(member.role)
      .split(",")
      .map((role) => role.trim());
    if (roles.includes(creatorRole))
      ownerRows.push({ organizationId: String(member.organizationId), userId: member.userId as ObjectId });
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

/**
 * docs/scale.md: a user is found by email through its address claim. A user without one cannot sign
 * in (fix: the claim is written); a claim whose user is gone or holds another address is stale —
 * harmless (the next sign-up or move with the address takes it over), and --fix deletes it.
 */
async function emailClaims(db: Db, fix: boolean): Promise<Finding[]> {
  // The users' owner checks and repairs the claims (and bumps admin list-users after a claim written).
  const gaps = await checkEmailClaims(db, fix);
  return [
    {
      check: "users-without-email-claim",
      description: "users whose address has no claim (they are not found by email: cannot sign in)",
      count: gaps.unclaimed.length,
      fixable: true,
      fixed: gaps.claimed,
      examples: gaps.unclaimed.slice(0, 3),
    },
    {
      check: "stale-email-claims",
      description:
        "address claims whose user is gone or holds another address (the next sign-up with it takes it over)",
      count: gaps.stale.length,
      fixable: true,
      fixed: gaps.deleted,
      examples: gaps.stale.slice(0, 3),
    },
  ];
}

/**
 * docs/scale.md: admin list-users reads the first page from the users' timeline, one entry per
 * user. A user without an entry or a settled entry (older than a minute) without a user makes
 * list-users read the users collection instead (same answer, slower) until cleanup or --fix runs
 * the timeline's repair (the users' owner's one, which also bumps admin list-users).
 */
async function userTimeline(db: Db, fix: boolean): Promise<Finding[]> {
  const gaps = await checkUserTimeline(db, fix);
  return [
    {
      check: "users-without-timeline-entry",
      description:
        "users missing from the timeline admin list-users reads (it reads the users collection instead)",
      count: gaps.usersWithoutEntry.length,
      fixable: true,
      fixed: gaps.entered,
      examples: gaps.usersWithoutEntry.slice(0, 3),
    },
    {
      check: "timeline-entries-without-user",
      description:
        "timeline entries whose user is gone (admin list-users reads the users collection instead)",
      count: gaps.entriesWithoutUser.length,
      fixable: true,
      fixed: gaps.removed,
      examples: gaps.entriesWithoutUser.slice(0, 3),
    },
  ];
}

async function duplicateEmails(db: Db): Promise<Finding> {
  const seen = new Map<string, number>();
  for await (const user of readStoredRows(db, "users").scan({}, ["email"])) {
    const key = String(user.email).trim().toLowerCase();
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  const duplicated = [...seen].filter(([, count]) => count > 1).map(([email]) => email);
  return {
    check: "duplicate-emails",
    description: "emails held by several users, differing only in case (merge or remove by hand)",
    count: duplicated.length,
    fixable: false,
    fixed: 0,
    examples: duplicated.slice(0, 3),
  };
}
