import { checkEmailClaims, checkUserTimeline, readStoredRows } from "@tessera/auth-core/operator";
import type { Finding } from "./finding.ts";

/** The Tessera database, as the operator API takes it. */
type Db = Parameters<typeof checkEmailClaims>[0];

/**
 * The users' checks of `tessera doctor` (invariants.ts): address claims and the users' timeline,
 * checked and repaired by the users' owner in the core, and addresses that differ only in case.
 */
export async function checkUserInvariants(db: Db, fix: boolean): Promise<Finding[]> {
  return [...(await emailClaims(db, fix)), ...(await userTimeline(db, fix)), await duplicateEmails(db)];
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
