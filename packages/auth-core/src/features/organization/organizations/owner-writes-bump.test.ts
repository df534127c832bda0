import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { addMember, createOrganization, type Fixture, useFixtures } from "#test/organization.ts";
import type { Collections } from "../../../db/collections.ts";
import type { InvitationDoc, MemberDoc } from "../../../db/documents.ts";
import * as invitationsStore from "../invitations/store.ts";
import * as membersStore from "../members/store.ts";

/**
 * One owner per collection (docs/architecture.md): every write function of the members and
 * invitations owners that changes what get-full-organization lists bumps the organization's listing
 * version inside itself, so no caller can forget it. Each is called here directly, with nothing
 * around it, between a read that is held (db/listing-cache.ts) and the next read, which must show
 * the write. A write function added to either store without a row below fails the first test.
 * Each case runs on an organization of its own (owner O, admin D, member M; X not a member).
 */
const fixture = useFixtures();

interface Full {
  members: { userId: string; role: string; teamId: string | null }[];
  invitations: { id: string; email: string; status: string; role: string }[];
}

/** One case's organization: its id and the member ids of M and D, with the fixture's users. */
interface Scene {
  A: string;
  members: { M: string; D: string };
  O: Fixture["O"];
  M: Fixture["M"];
  D: Fixture["D"];
  X: Fixture["X"];
}

/** Before the listing is held: what the write needs (an invitation to change…). */
type Prepare = (f: Scene, c: Collections) => Promise<InvitationDoc | ObjectId | undefined>;

interface Case {
  prepare?: Prepare;
  /** The owner's write function, called alone. */
  write: (f: Scene, c: Collections, prepared: InvitationDoc & ObjectId) => Promise<unknown>;
  /** What the next read must show. */
  shows: (full: Full, f: Scene) => void;
}

const oid = (hex: string) => new ObjectId(hex);
// The row's user and role name it in its member.updated or member.removed event (features/events).
const memberRef = (f: Scene, id: string, userId: string) => ({
  _id: oid(id),
  organizationId: oid(f.A),
  userId: oid(userId),
  role: "member",
});
const userIds = (full: Full) => full.members.map((m) => m.userId);
const emails = (full: Full) => full.invitations.map((i) => i.email);

function memberDoc(f: Scene, userId: string): MemberDoc {
  return {
    _id: new ObjectId(),
    organizationId: oid(f.A),
    userId: oid(userId),
    role: "member",
    createdAt: new Date(),
    teamId: null,
    seat: 90,
  };
}

function invitationDoc(f: Scene, email: string, expiresInMs = 86_400_000): InvitationDoc {
  return {
    _id: new ObjectId(),
    organizationId: oid(f.A),
    email,
    role: "member",
    status: "pending",
    teamId: null,
    inviterId: oid(f.O.userId),
    expiresAt: new Date(Date.now() + expiresInMs),
    createdAt: new Date(),
    slot: `pending:${f.A}:${email}`,
  };
}

/** An invitation written before the listing is held, for the write to change. */
const invite =
  (email: string, expiresInMs?: number): Prepare =>
  async (f, c) => {
    const doc = invitationDoc(f, email, expiresInMs);
    await c.invitations.insertOne(doc);
    return doc;
  };

const listsUser = (key: "X") => (full: Full, f: Scene) => expect(userIds(full)).toContain(f[key].userId);
const dropsUser = (key: "M" | "D") => (full: Full, f: Scene) =>
  expect(userIds(full)).not.toContain(f[key].userId);
const dropsInvitation = (email: string) => (full: Full) => expect(emails(full)).not.toContain(email);

const MEMBER_WRITES: Record<string, Case> = {
  insertMember: {
    write: (f, c) => membersStore.insertMember(c, memberDoc(f, f.X.userId)),
    shows: listsUser("X"),
  },
  insertMembersInBulk: {
    write: (f, c) => membersStore.insertMembersInBulk(c, [memberDoc(f, f.X.userId)]),
    shows: listsUser("X"),
  },
  setMemberRole: {
    write: (f, c) => membersStore.setMemberRole(c, memberRef(f, f.members.M, f.M.userId), "admin"),
    shows: (full, f) =>
      expect(full.members).toContainEqual(expect.objectContaining({ userId: f.M.userId, role: "admin" })),
  },
  deleteMemberById: {
    write: (f, c) => membersStore.deleteMemberById(c, memberRef(f, f.members.M, f.M.userId)),
    shows: dropsUser("M"),
  },
  deleteUserMembers: {
    write: (f, c) => membersStore.deleteUserMembers(c, oid(f.M.userId)),
    shows: dropsUser("M"),
  },
  deleteUserMembersWithoutRole: {
    write: (f, c) => membersStore.deleteUserMembersWithoutRole(c, oid(f.D.userId), "owner"),
    shows: dropsUser("D"),
  },
  deleteMembersWhere: {
    write: (f, c) => membersStore.deleteMembersWhere(c, "userId", [oid(f.M.userId)]),
    shows: dropsUser("M"),
  },
  clearMembersTeam: {
    prepare: async (f, c) => {
      const teamId = new ObjectId();
      await c.members.updateOne({ _id: oid(f.members.M) }, { $set: { teamId } });
      return teamId;
    },
    write: (f, c, teamId) => membersStore.clearMembersTeam(c, oid(f.A), teamId),
    shows: (full, f) => expect(full.members.find((m) => m.userId === f.M.userId)?.teamId).toBeNull(),
  },
};

const INVITATION_WRITES: Record<string, Case> = {
  insertInvitation: {
    write: (f, c) => invitationsStore.insertInvitation(c, invitationDoc(f, "new@example.com")),
    shows: (full) => expect(emails(full)).toContain("new@example.com"),
  },
  insertInvitationsInBulk: {
    write: (f, c) => invitationsStore.insertInvitationsInBulk(c, [invitationDoc(f, "bulk@example.com")]),
    shows: (full) => expect(emails(full)).toContain("bulk@example.com"),
  },
  setInvitationStatus: {
    prepare: invite("status@example.com"),
    write: (_, c, doc) => invitationsStore.setInvitationStatus(c, doc, "canceled", `closed:${doc._id}`),
    shows: (full) =>
      expect(full.invitations).toMatchObject([{ email: "status@example.com", status: "canceled" }]),
  },
  renewInvitation: {
    prepare: invite("renew@example.com"),
    write: (_, c, doc) => invitationsStore.renewInvitation(c, doc._id, { ...doc, role: "admin" }),
    shows: (full) => expect(full.invitations).toMatchObject([{ email: "renew@example.com", role: "admin" }]),
  },
  deleteInvitationById: {
    prepare: invite("deleted@example.com"),
    write: (_, c, doc) => invitationsStore.deleteInvitationById(c, doc),
    shows: dropsInvitation("deleted@example.com"),
  },
  deleteInviterPendingInvitations: {
    prepare: invite("sent@example.com"),
    write: (f, c) => invitationsStore.deleteInviterPendingInvitations(c, [oid(f.A)], oid(f.O.userId)),
    shows: dropsInvitation("sent@example.com"),
  },
  deleteStalePendingInvitations: {
    prepare: invite("stale@example.com", -60_000),
    write: (_, c) => invitationsStore.deleteStalePendingInvitations(c, new Date()),
    shows: dropsInvitation("stale@example.com"),
  },
  deleteInvitationsWhere: {
    prepare: invite("orphan@example.com"),
    write: (_, c, doc) => invitationsStore.deleteInvitationsWhere(c, "_id", [doc._id], true),
    shows: dropsInvitation("orphan@example.com"),
  },
};

/**
 * Writes that change no listing anyone can hold, each with the reason: the creator's row is written
 * before its organization exists; an organization's rows go with it (its delete cascade); an
 * invitation's slot is not listed.
 */
const NOT_LISTED = [
  "insertCreatorMember",
  "deleteOrganizationMembers",
  "deleteOrganizationInvitations",
  "closeInvitationSlot",
];

/** The exported functions of a store that write (by the verbs the stores use for writes). */
function writeFunctionsOf(store: Record<string, unknown>): string[] {
  return Object.keys(store)
    .filter((name) => typeof store[name] === "function")
    .filter((name) => /^(insert|set|update|delete|renew|clear|close|remove|add)[A-Z]/.test(name))
    .sort();
}

async function read(f: Scene): Promise<Full> {
  const res = await f.O.browser.get<Full>(`/organization/get-full-organization?organizationId=${f.A}`);
  expect(res.status).toBe(200);
  return res.body;
}

/** Runs each case on a new organization of one fixture; a failure names its case. */
async function runCases(fixture: Fixture, cases: Record<string, Case>): Promise<void> {
  const c = fixture.t.auth.context.collections;
  for (const [name, testCase] of Object.entries(cases)) {
    const A = await createOrganization(fixture.O, `case-${name.toLowerCase()}`);
    const members = {
      M: await addMember(fixture.t, A, fixture.M, "member"),
      D: await addMember(fixture.t, A, fixture.D, "admin"),
    };
    const f: Scene = { A, members, O: fixture.O, M: fixture.M, D: fixture.D, X: fixture.X };
    const prepared = (await testCase.prepare?.(f, c)) as InvitationDoc & ObjectId;
    await read(f);
    // Held: the second read reads the organization and the caller's row, none of the lists.
    const held = await fixture.t.commands(() => read(f));
    expect(held.slice(2), name).toEqual(["find:organizations", "find:members"]);
    await testCase.write(f, c, prepared);
    try {
      testCase.shows(await read(f), f);
    } catch (error) {
      throw new Error(`${name}: the listing held before it was served after it`, { cause: error });
    }
  }
}

describe("every write of the members and invitations owners shows on the next get-full-organization", () => {
  it("each write function of the two stores has a case below, or a reason it changes no listing", () => {
    const covered = [...Object.keys(MEMBER_WRITES), ...Object.keys(INVITATION_WRITES), ...NOT_LISTED].sort();
    expect([...writeFunctionsOf(membersStore), ...writeFunctionsOf(invitationsStore)].sort()).toEqual(
      covered,
    );
  });

  it("each write function of the members store, called alone", async () => {
    await runCases(await fixture({ organization: { organizationLimit: 20 } }), MEMBER_WRITES);
  });

  it("each write function of the invitations store, called alone", async () => {
    await runCases(await fixture({ organization: { organizationLimit: 20 } }), INVITATION_WRITES);
  });
});
