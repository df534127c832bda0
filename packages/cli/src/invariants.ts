import {
  bumpUsersListings,
  deleteOrganizationRows,
  type OrphanRows,
  storedIds,
} from "@tessera/auth-core/operator";
import { type Db, type Document, type Filter, MongoBulkWriteError, ObjectId } from "mongodb";

/**
 * The data's invariants, checked (and with `fix`, repaired where that is safe) straight on the
 * collections: rows of users, organizations and teams that no longer exist, organizations without
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
async function missingParents(db: Db, collection: string, field: string, parent: string): Promise<unknown[]> {
  const values = (await db.collection(collection).distinct(field, { [field]: { $ne: null } })) as unknown[];
  const missing: unknown[] = [];
  for (let start = 0; start < values.length; start += BATCH) {
    const batch = values.slice(start, start + BATCH);
    const ids = batch
      .map((value) => (typeof value === "string" ? toObjectId(value) : value))
      .filter((id): id is ObjectId => id instanceof Object);
    const found = await db
      .collection(parent)
      .find({ _id: { $in: ids } }, { projection: { _id: 1 } })
      .toArray();
    const present = new Set(found.map((doc) => String(doc._id)));
    for (const value of batch) if (!present.has(String(value))) missing.push(value);
  }
  return missing;
}

/** Team ids on invitations are stored as hex strings: looked up as ObjectIds. */
function toObjectId(value: string): ObjectId | null {
  return /^[0-9a-f]{24}$/i.test(value) ? new ObjectId(value) : null;
}

/** The collections whose rows a repair deletes through the core's owners (deleteOrganizationRows). */
const ORGANIZATION_ROWS = new Set(["members", "invitations", "teams", "teamMembers"]);

export async function checkDataInvariants(db: Db, options: InvariantOptions = {}): Promise<Finding[]> {
  const fix = options.fix === true;
  const creatorRole = options.creatorRole ?? "owner";
  const findings: Finding[] = [];

  async function orphans(
    check: string,
    description: string,
    collection: string,
    field: string,
    parent: string,
  ) {
    const missing = await missingParents(db, collection, field, parent);
    const filter: Filter<Document> = { [field]: { $in: missing } };
    const count = missing.length === 0 ? 0 : await db.collection(collection).countDocuments(filter);
    let fixed = 0;
    if (fix && count > 0) {
      // Organization rows go through their owner: a member row or an invitation gone changes its
      // organization's listing (get-full-organization), and the owner bumps it.
      const owned = { collection, field } as OrphanRows;
      fixed = ORGANIZATION_ROWS.has(collection)
        ? await deleteOrganizationRows(db, owned, missing)
        : (await db.collection(collection).deleteMany(filter)).deletedCount;
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
  const invitations = await db
    .collection("invitations")
    .find(
      { status: "pending", teamId: { $ne: null } },
      { projection: { _id: 1, teamId: 1, organizationId: 1 } },
    )
    .toArray();
  const teamIds = new Set(invitations.flatMap((invitation) => String(invitation.teamId).split(",")));
  const ids = [...teamIds].map((id) => toObjectId(id.trim())).filter((id) => id !== null);
  const present = new Set(
    (
      await db
        .collection("teams")
        .find({ _id: { $in: ids } }, { projection: { _id: 1 } })
        .toArray()
    ).map((team) => String(team._id)),
  );
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
  const entries = await db
    .collection("pendingDeletions")
    .find({}, { projection: { kind: 1, targetId: 1 } })
    .toArray();
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
  for await (const member of db
    .collection("members")
    .find({}, { projection: { organizationId: 1, userId: 1, role: 1 } })) {
    const roles = String(member.role)
      .split(",")
      .map((role) => role.trim());
    if (roles.includes(creatorRole))
      ownerRows.push({ organizationId: String(member.organizationId), userId: member.userId as ObjectId });
  }
  const existing = new Set<string>();
  for (let start = 0; start < ownerRows.length; start += BATCH) {
    const ids = ownerRows.slice(start, start + BATCH).map((row) => row.userId);
    for (const user of await db
      .collection("users")
      .find({ _id: { $in: ids } }, { projection: { _id: 1 } })
      .toArray()) {
      existing.add(String(user._id));
    }
  }
  const owned = new Set(
    ownerRows.filter((row) => existing.has(String(row.userId))).map((row) => row.organizationId),
  );
  const ownerless: string[] = [];
  for await (const org of db.collection("organizations").find({}, { projection: { _id: 1, slug: 1 } })) {
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
  for await (const org of db.collection("organizations").find({}, { projection: { _id: 1 } }))
    organizations.add(String(org._id));
  const members = new Set<string>();
  for await (const member of db
    .collection("members")
    .find({}, { projection: { organizationId: 1, userId: 1 } })) {
    members.add(`${String(member.organizationId)}|${String(member.userId)}`);
  }
  const stale: ObjectId[] = [];
  const sessions = db
    .collection("sessions")
    .find(
      { activeOrganizationId: { $ne: null } },
      { projection: { _id: 1, userId: 1, activeOrganizationId: 1 } },
    );
  for await (const session of sessions) {
    const org = String(session.activeOrganizationId);
    if (!organizations.has(org) || !members.has(`${org}|${String(session.userId)}`)) stale.push(session._id);
  }
  let fixed = 0;
  if (fix && stale.length > 0) {
    const result = await db
      .collection("sessions")
      .updateMany({ _id: { $in: stale } }, { $set: { activeOrganizationId: null, activeTeamId: null } });
    fixed = result.modifiedCount;
  }
  return {
    check: "active-organizations-of-non-members",
    description: "sessions whose active organization is gone or not their user's",
    count: stale.length,
    fixable: true,
    fixed,
    examples: stale.slice(0, 3).map(String),
  };
}

/**
 * docs/scale.md: a user is found by email through its address claim. A user without one cannot sign
 * in (fix: the claim is written); a claim whose user is gone or holds another address is stale —
 * harmless (the next sign-up or move with the address takes it over), and --fix deletes it.
 */
async function emailClaims(db: Db, fix: boolean): Promise<Finding[]> {
  const holders = new Map<string, ObjectId>();
  for await (const user of db.collection("users").find({}, { projection: { email: 1 } }))
    holders.set(String(user.email), user._id as ObjectId);
  const claimed = new Set<string>();
  const stale: string[] = [];
  for await (const claim of db.collection<{ _id: string; userId: ObjectId }>("emailClaims").find({})) {
    const holder = holders.get(claim._id);
    if (holder?.equals(claim.userId)) claimed.add(claim._id);
    else stale.push(claim._id);
  }
  const unclaimed = [...holders].filter(([email]) => !claimed.has(email));
  let fixedStale = 0;
  let fixedUnclaimed = 0;
  if (fix && stale.length > 0) {
    for (let start = 0; start < stale.length; start += BATCH) {
      const batch = stale.slice(start, start + BATCH);
      fixedStale += (await db.collection<{ _id: string }>("emailClaims").deleteMany({ _id: { $in: batch } }))
        .deletedCount;
    }
  }
  if (fix && unclaimed.length > 0) {
    const now = new Date();
    for (const [email, userId] of unclaimed) {
      const result = await db
        .collection<{ _id: string; userId: ObjectId; createdAt: Date }>("emailClaims")
        .updateOne({ _id: email }, { $set: { userId }, $setOnInsert: { createdAt: now } }, { upsert: true });
      fixedUnclaimed += result.upsertedCount + result.modifiedCount;
    }
  }
  // A claimed address is found by admin list-users' address-prefix search (docs/scale.md).
  if (fixedUnclaimed > 0) await bumpUsersListings(db);
  return [
    {
      check: "users-without-email-claim",
      description: "users whose address has no claim (they are not found by email: cannot sign in)",
      count: unclaimed.length,
      fixable: true,
      fixed: fixedUnclaimed,
      examples: unclaimed.slice(0, 3).map(([email]) => email),
    },
    {
      check: "stale-email-claims",
      description:
        "address claims whose user is gone or holds another address (the next sign-up with it takes it over)",
      count: stale.length,
      fixable: true,
      fixed: fixedStale,
      examples: stale.slice(0, 3),
    },
  ];
}

/** An entry younger than this may be a sign-up between its two writes (auth-core users/store.ts). */
const TIMELINE_SETTLE_MS = 60_000;

/**
 * docs/scale.md: admin list-users reads the first page from the users' timeline, one entry per user
 * (`_id` = storedIds.timelineEntry). A user without an entry or a settled entry without a user makes
 * list-users read the users collection instead (same answer, slower) until cleanup or --fix puts
 * the timeline right.
 */
async function userTimeline(db: Db, fix: boolean): Promise<Finding[]> {
  const expected = new Map<string, { _id: string; userId: ObjectId }>();
  for await (const user of db.collection("users").find({}, { projection: { createdAt: 1 } })) {
    if (!(user.createdAt instanceof Date)) continue;
    const entry = storedIds.timelineEntry({ _id: user._id as ObjectId, createdAt: user.createdAt });
    expected.set(entry._id, entry);
  }
  const timeline = db.collection<{ _id: string; userId: ObjectId }>(storedIds.userTimelineCollection);
  const settledBefore = Date.now() - TIMELINE_SETTLE_MS;
  const orphans: string[] = [];
  for await (const entry of timeline.find({})) {
    if (expected.delete(entry._id)) continue;
    const createdAt = Number(entry._id.slice(1, 17)) - 1e15;
    if (!(createdAt >= settledBefore)) orphans.push(entry._id);
  }
  const missing = [...expected.values()];
  let fixedOrphans = 0;
  let fixedMissing = 0;
  if (fix) {
    for (let start = 0; start < orphans.length; start += BATCH) {
      fixedOrphans += (await timeline.deleteMany({ _id: { $in: orphans.slice(start, start + BATCH) } }))
        .deletedCount;
    }
    for (let start = 0; start < missing.length; start += BATCH) {
      await timeline.insertMany(missing.slice(start, start + BATCH), { ordered: false }).catch((error) => {
        if (!(error instanceof MongoBulkWriteError)) throw error;
      });
      fixedMissing += Math.min(BATCH, missing.length - start);
    }
    // Admin list-users may hold pages read while the timeline was short.
    if (fixedOrphans + fixedMissing > 0) await bumpUsersListings(db);
  }
  return [
    {
      check: "users-without-timeline-entry",
      description:
        "users missing from the timeline admin list-users reads (it reads the users collection instead)",
      count: missing.length,
      fixable: true,
      fixed: fixedMissing,
      examples: missing.slice(0, 3).map((entry) => entry.userId.toHexString()),
    },
    {
      check: "timeline-entries-without-user",
      description:
        "timeline entries whose user is gone (admin list-users reads the users collection instead)",
      count: orphans.length,
      fixable: true,
      fixed: fixedOrphans,
      examples: orphans.slice(0, 3),
    },
  ];
}

async function duplicateEmails(db: Db): Promise<Finding> {
  const seen = new Map<string, number>();
  for await (const user of db.collection("users").find({}, { projection: { email: 1 } })) {
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
