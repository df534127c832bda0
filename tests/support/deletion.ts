import { type Db, ObjectId } from "mongodb";
import { signUpUser, type TestBrowser } from "./browser.ts";
import type { TestAuth } from "./test-auth.ts";

export const PASSWORD = "correct horse battery";

/** Signs up through HTTP and returns the new user's id (the browser is signed in). */
export async function signUpIn(t: TestAuth, browser: TestBrowser, email: string): Promise<ObjectId> {
  const { id } = await signUpUser(t, { email, password: PASSWORD, browser });
  return ObjectId.createFromHexString(id);
}

/** What the database holds for one user: the rows deletion must remove. */
export async function userRows(db: Db, userId: ObjectId) {
  return {
    users: await db.collection("users").countDocuments({ _id: userId }),
    sessions: await db.collection("sessions").countDocuments({ userId }),
    accounts: await db.collection("accounts").countDocuments({ userId }),
    tokens: await db.collection("verifications").countDocuments({ value: userId.toHexString() }),
  };
}

/** The link of the latest delete-account mail to `email`, as a path under the API base. */
export function deleteLinkFrom(text: string): { path: string; token: string; callbackURL: string | null } {
  const match = text.match(/https?:\/\/\S+\/api\/auth(\/delete-user\/callback\?\S+)/);
  if (!match?.[1]) throw new Error(`no delete-account link in mail: ${text}`);
  const url = new URL(match[1], "http://localhost");
  return {
    path: match[1],
    token: url.searchParams.get("token") ?? "",
    callbackURL: url.searchParams.get("callbackURL"),
  };
}

/** What the database holds for one organization: the rows a deletion's cascade is about. */
export async function organizationRows(db: Db, organizationId: string) {
  const id = ObjectId.createFromHexString(organizationId);
  return {
    organizations: await db.collection("organizations").countDocuments({ _id: id }),
    members: await db.collection("members").countDocuments({ organizationId: id }),
    invitations: await db.collection("invitations").countDocuments({ organizationId: id }),
    teams: await db.collection("teams").countDocuments({ organizationId: id }),
    teamMembers: await db.collection("teamMembers").countDocuments({ organizationId: id }),
  };
}

/** A user's rows in the organization tables: memberships, team memberships, invitations sent. */
export async function membershipRows(db: Db, userId: string) {
  const id = ObjectId.createFromHexString(userId);
  return {
    members: await db.collection("members").countDocuments({ userId: id }),
    teamMembers: await db.collection("teamMembers").countDocuments({ userId: id }),
    invitationsSent: await db.collection("invitations").countDocuments({ inviterId: id }),
  };
}

/** `userRows` of a user with one session and a password account, and of one deleted with everything. */
export const INTACT = { users: 1, sessions: 1, accounts: 1, tokens: 0 };
export const GONE = { users: 0, sessions: 0, accounts: 0, tokens: 0 };
/** `organizationRows` of an organization deleted whole. */
export const NO_ORGANIZATION = { organizations: 0, members: 0, invitations: 0, teams: 0, teamMembers: 0 };

export const SOLE_OWNER = {
  code: "SOLE_OWNER_CANNOT_BE_DELETED",
  message: "Transfer ownership or delete the organization first",
};
