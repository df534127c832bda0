import { type Db, ObjectId } from "mongodb";
import type { Person } from "./http-client.ts";

/**
 * What the server acknowledged (a 2xx answer), written down as it happened, and checked against the
 * database afterwards. A write that was answered with anything else (503 while the database was
 * down, a reset connection) may or may not have happened: it widens what the check accepts (the
 * name may be the old or the attempted one) but is never required to be there.
 */
export interface Ledger {
  /** userId → acknowledged sign-up; `names` holds every name the stored one may be. */
  users: Map<string, { email: string; names: Set<string> }>;
  organizations: Set<string>;
  /** `${organizationId}|${userId}` from organization create (the owner) and accept-invitation. */
  members: Set<string>;
  /** Invitation ids acknowledged as created, and those acknowledged as accepted. */
  invitations: Set<string>;
  accepted: Set<string>;
  /** Cookie headers of sessions whose sign-out was acknowledged: they must read as no session. */
  signedOut: string[];
  /** People signed in now, with the active organizations their session may hold. */
  live: { person: Person; userId: string; active: Set<string | null> }[];
}

export function createLedger(): Ledger {
  return {
    users: new Map(),
    organizations: new Set(),
    members: new Set(),
    invitations: new Set(),
    accepted: new Set(),
    signedOut: [],
    live: [],
  };
}

export interface LedgerCheck {
  /** Acknowledged writes looked up. */
  checked: number;
  /** One line per acknowledged write that is not as acknowledged. */
  missing: string[];
}

const oid = (id: string) => new ObjectId(id);

/** Reads every acknowledged write back: from the collections, and sessions through get-session. */
export async function checkLedger(ledger: Ledger, db: Db, reader: Person): Promise<LedgerCheck> {
  const missing: string[] = [];
  let checked = 0;
  const users = await db
    .collection("users")
    .find({ _id: { $in: [...ledger.users.keys()].map(oid) } }, { projection: { name: 1, email: 1 } })
    .toArray();
  const stored = new Map(users.map((user) => [String(user._id), user]));
  for (const [id, expected] of ledger.users) {
    checked++;
    const user = stored.get(id);
    if (!user) missing.push(`user ${id} (${expected.email}) is gone`);
    else if (!expected.names.has(String(user.name)))
      missing.push(`user ${id} is named ${user.name}, acknowledged ${[...expected.names].join(" or ")}`);
  }
  const orgs = await db
    .collection("organizations")
    .find({ _id: { $in: [...ledger.organizations].map(oid) } }, { projection: { _id: 1 } })
    .toArray();
  const orgIds = new Set(orgs.map((org) => String(org._id)));
  for (const id of ledger.organizations) {
    checked++;
    if (!orgIds.has(id)) missing.push(`organization ${id} is gone`);
  }
  const memberRows = await db
    .collection("members")
    .find({ organizationId: { $in: [...ledger.organizations].map(oid) } })
    .project({ organizationId: 1, userId: 1 })
    .toArray();
  const memberKeys = new Set(memberRows.map((row) => `${String(row.organizationId)}|${String(row.userId)}`));
  for (const key of ledger.members) {
    checked++;
    if (!memberKeys.has(key)) missing.push(`membership ${key} is gone`);
  }
  const invitations = await db
    .collection("invitations")
    .find({ _id: { $in: [...ledger.invitations].map(oid) } }, { projection: { status: 1 } })
    .toArray();
  const statuses = new Map(invitations.map((row) => [String(row._id), String(row.status)]));
  for (const id of ledger.invitations) {
    checked++;
    const status = statuses.get(id);
    if (status === undefined) missing.push(`invitation ${id} is gone`);
    else if (ledger.accepted.has(id) && status !== "accepted")
      missing.push(`invitation ${id} is ${status}, acknowledged accepted`);
  }
  for (const cookie of ledger.signedOut) {
    checked++;
    const answer = await reader.getWithCookie("/get-session", cookie);
    if (answer.status !== 200 || answer.body !== null)
      missing.push(`a signed-out session still reads as ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  for (const { person, userId, active } of ledger.live) {
    checked++;
    const answer = await person.get("/get-session");
    const body = answer.body as {
      user?: { id?: string };
      session?: { activeOrganizationId?: string };
    } | null;
    if (answer.status !== 200 || body?.user?.id !== userId) {
      missing.push(`the session of ${userId} reads as ${answer.status} ${JSON.stringify(answer.body)}`);
    } else if (!active.has(body.session?.activeOrganizationId ?? null)) {
      missing.push(`the session of ${userId} has active organization ${body.session?.activeOrganizationId}`);
    }
  }
  return { checked, missing };
}
