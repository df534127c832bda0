import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { memberRoles, signIn, useFixtures } from "#test/organization.ts";

/**
 * Concurrency against the real FerretDB server (issue 3 "Races", docs/security.md M/I/E16): FerretDB v1
 * lets several concurrent compare-and-set updates "win", so these prove the unique claims and delete
 * counts the feature relies on.
 */
const fixture = useFixtures();
const statuses = (results: { status: number }[]) => results.map((r) => r.status).sort();

describe("races", () => {
  it("10 concurrent accepts of one invitation create exactly one member", async () => {
    const { t, O, A } = await fixture();
    const sent = await O.browser.post<{ id: string }>("/organization/invite-member", {
      organizationId: A,
      email: "new@example.com",
      role: "member",
    });
    const invitee = await signIn(t, "new");
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        invitee.browser.post<{ code?: string }>("/organization/accept-invitation", {
          invitationId: sent.body.id,
        }),
      ),
    );
    expect(statuses(results)).toEqual([200, ...Array(9).fill(400)]);
    expect(results.filter((r) => r.status === 400).every((r) => r.body.code === "INVITATION_NOT_FOUND")).toBe(
      true,
    );
    expect(await t.db.collection("members").countDocuments({ userId: new ObjectId(invitee.userId) })).toBe(1);
    expect(await t.db.collection("invitations").find({ email: "new@example.com" }).toArray()).toMatchObject([
      { status: "accepted" },
    ]);
  });

  it("10 concurrent creates with one slug create one organization with one owner", async () => {
    const { t } = await fixture();
    const users = await Promise.all(Array.from({ length: 10 }, (_, i) => signIn(t, `racer${i}`)));
    const results = await Promise.all(
      users.map((user) => user.browser.post("/organization/create", { name: "Race", slug: "race" })),
    );
    expect(statuses(results)).toEqual([200, ...Array(9).fill(400)]);
    const orgs = await t.db.collection("organizations").find({ slug: "race" }).toArray();
    expect(orgs).toHaveLength(1);
    expect(await t.db.collection("members").countDocuments({ organizationId: orgs[0]!._id })).toBe(1);
    const racers = users.map((user) => new ObjectId(user.userId));
    expect(await t.db.collection("members").countDocuments({ userId: { $in: racers } })).toBe(1);
  });

  it("concurrent accepts at the membership limit never exceed it", async () => {
    // Org A has 3 members; 3 seats are left for 10 invitees accepting at once.
    const { t, O, A } = await fixture({ organization: { membershipLimit: 6 } });
    const invitees = await Promise.all(Array.from({ length: 10 }, (_, i) => signIn(t, `seat${i}`)));
    const invitations: string[] = [];
    for (const invitee of invitees) {
      const res = await O.browser.post<{ id: string }>("/organization/invite-member", {
        organizationId: A,
        email: invitee.email,
        role: "member",
      });
      invitations.push(res.body.id);
    }
    const results = await Promise.all(
      invitees.map((invitee, i) =>
        invitee.browser.post("/organization/accept-invitation", { invitationId: invitations[i] }),
      ),
    );
    expect(statuses(results)).toEqual([200, 200, 200, ...Array(7).fill(403)]);
    expect(await t.db.collection("members").countDocuments({ organizationId: new ObjectId(A) })).toBe(6);
    const rows = await t.db
      .collection("invitations")
      .find({ organizationId: new ObjectId(A) })
      .toArray();
    expect(rows.filter((row) => row.status === "accepted")).toHaveLength(3);
    expect(rows.filter((row) => row.status === "pending")).toHaveLength(7);
    // Every accepted invitation has its member, and only those.
    const roles = await memberRoles(t, A);
    for (const [i, invitee] of invitees.entries())
      expect(invitee.userId in roles).toBe(results[i]!.status === 200);
  });

  it("concurrent server adds at the membership limit never exceed it", async () => {
    const { t, A } = await fixture({ organization: { membershipLimit: 5 } });
    const users = await Promise.all(Array.from({ length: 8 }, (_, i) => signIn(t, `add${i}`)));
    const results = await Promise.allSettled(
      users.map((user) =>
        t.auth.api.addMember({ body: { organizationId: A, userId: user.userId, role: "member" } }),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(2);
    expect(await t.db.collection("members").countDocuments({ organizationId: new ObjectId(A) })).toBe(5);
  });

  it("two owners demoting each other at once never leave the organization without an owner", async () => {
    const { t, O, D, A, members } = await fixture();
    for (let round = 0; round < 10; round++) {
      await t.db
        .collection("members")
        .updateOne({ _id: new ObjectId(members.D) }, { $set: { role: "owner" } });
      await t.db
        .collection("members")
        .updateOne({ _id: new ObjectId(members.O) }, { $set: { role: "owner" } });
      const results = await Promise.all([
        O.browser.post("/organization/update-member-role", {
          organizationId: A,
          memberId: members.D,
          role: "member",
        }),
        D.browser.post("/organization/update-member-role", {
          organizationId: A,
          memberId: members.O,
          role: "member",
        }),
      ]);
      const owners = Object.values(await memberRoles(t, A)).filter((role) => role === "owner");
      expect(owners.length, `round ${round}`).toBeGreaterThanOrEqual(1);
      // Each demotion that went through took one owner away.
      expect(results.filter((r) => r.status === 200).length).toBe(2 - owners.length);
    }
  });

  it("accept racing cancel: the member exists exactly when the invitation is accepted", async () => {
    const { t, O, A } = await fixture();
    const invitee = await signIn(t, "new");
    for (let round = 0; round < 5; round++) {
      await t.db.collection("members").deleteMany({ userId: new ObjectId(invitee.userId) });
      const sent = await O.browser.post<{ id: string }>("/organization/invite-member", {
        organizationId: A,
        email: invitee.email,
        role: "member",
      });
      const [accepted, canceled] = await Promise.all([
        invitee.browser.post("/organization/accept-invitation", { invitationId: sent.body.id }),
        O.browser.post("/organization/cancel-invitation", { invitationId: sent.body.id }),
      ]);
      expect([accepted.status, canceled.status].filter((s) => s === 200)).toHaveLength(1);
      const row = await t.db.collection("invitations").findOne({ _id: new ObjectId(sent.body.id) });
      const isMember = invitee.userId in (await memberRoles(t, A));
      expect(row?.status).toBe(isMember ? "accepted" : "canceled");
    }
  });

  it("update-member-role racing remove-member never resurrects the member", async () => {
    const { t, O, D, A } = await fixture();
    for (let round = 0; round < 5; round++) {
      const user = await signIn(t, `m8-${round}`);
      const { data } = await t.auth.api.addMember({
        body: { organizationId: A, userId: user.userId, role: "member" },
      });
      const memberId = (data as { id: string }).id;
      const [removed] = await Promise.all([
        O.browser.post("/organization/remove-member", { organizationId: A, memberIdOrEmail: memberId }),
        D.browser.post("/organization/update-member-role", { organizationId: A, memberId, role: "admin" }),
      ]);
      expect(removed.status).toBe(200);
      expect(await t.db.collection("members").countDocuments({ _id: new ObjectId(memberId) })).toBe(0);
    }
  });

  it("parallel invitations of one address leave one pending invitation", async () => {
    const { t, O, A } = await fixture();
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        O.browser.post("/organization/invite-member", {
          organizationId: A,
          email: "twice@example.com",
          role: "member",
        }),
      ),
    );
    expect(statuses(results)).toEqual([200, 400, 400, 400, 400]);
    expect(
      await t.db.collection("invitations").countDocuments({ email: "twice@example.com", status: "pending" }),
    ).toBe(1);
  });
});
