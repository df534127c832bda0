import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import {
  deleteLinkFrom,
  GONE,
  INTACT,
  membershipRows,
  NO_ORGANIZATION,
  organizationRows,
  SOLE_OWNER,
  userRows,
} from "#test/deletion.ts";
import { addMember, createOrganization, memberRoles, signIn } from "#test/organization.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";
import type { MemberDoc, UserDoc } from "../../db/documents.ts";
import { readOrganizationRelease, releaseOwnerships } from "./organizations.ts";
import { deleteUserAndData } from "./service.ts";

/**
 * docs/security.md on the other deletion paths — admin remove-user and the mailed link — and
 * under concurrency: two co-owners deleting themselves at once never leave an owner-less org.
 */
const { t, openAuth } = useTestAuthPerTest();

const rowsOf = (userId: string) => userRows(t.db, new ObjectId(userId));

describe("POST /admin/remove-user and the target's organizations", () => {
  async function setUp() {
    await openAuth();
    const admin = await signIn(t, "admin");
    await t.db
      .collection("users")
      .updateOne({ _id: new ObjectId(admin.userId) }, { $set: { role: "admin" } });
    const [ada, bob] = [await signIn(t, "ada"), await signIn(t, "bob")];
    return { admin, ada, bob };
  }

  it("refuses to remove the only owner of an organization with other members: nothing deleted, nothing audited", async () => {
    const { admin, ada, bob } = await setUp();
    const org = await createOrganization(ada, "org");
    await addMember(t, org, bob, "member");
    const res = await admin.browser.post("/admin/remove-user", { userId: ada.userId });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(SOLE_OWNER);
    expect(await rowsOf(ada.userId)).toEqual(INTACT);
    expect(await memberRoles(t, org)).toEqual({ [ada.userId]: "owner", [bob.userId]: "member" });
    expect(await t.db.collection("auditEvents").countDocuments({ action: "user.remove" })).toBe(0);
    // No removal marker either: a later removal (after a transfer) is not mistaken for a lost race.
    expect(await t.db.collection("verifications").countDocuments({ identifier: /^admin-remove-user:/ })).toBe(
      0,
    );
  });

  it("removes a sole member with their organization, and a member from theirs", async () => {
    const { admin, ada, bob } = await setUp();
    const alone = await createOrganization(ada, "alone");
    const org = await createOrganization(bob, "org");
    await addMember(t, org, ada, "admin");
    const res = await admin.browser.post("/admin/remove-user", { userId: ada.userId });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(await rowsOf(ada.userId)).toEqual(GONE);
    expect(await organizationRows(t.db, alone)).toEqual(NO_ORGANIZATION);
    expect(await membershipRows(t.db, ada.userId)).toEqual({
      members: 0,
      teamMembers: 0,
      invitationsSent: 0,
    });
    expect(await memberRoles(t, org)).toEqual({ [bob.userId]: "owner" });
  });
});

describe("GET /delete-user/callback and the user's organizations", () => {
  it("redirects a sole owner with error=SOLE_OWNER_CANNOT_BE_DELETED and keeps the token; after the transfer the same link deletes", async () => {
    await openAuth({
      user: { deleteUser: { enabled: true, sendDeleteAccountVerification: true } },
    });
    const [ada, bob, carol] = [await signIn(t, "ada"), await signIn(t, "bob"), await signIn(t, "carol")];
    const org = await createOrganization(ada, "org");
    await addMember(t, org, bob, "owner");
    const carolMember = await addMember(t, org, carol, "member");
    // The mail is sent while Bob co-owns; then Bob leaves and Ada is the only owner.
    expect((await ada.browser.post("/delete-user", { callbackURL: "/bye" })).status).toBe(200);
    const link = deleteLinkFrom(t.outbox.latestTo(ada.email)?.text ?? "");
    expect((await bob.browser.post("/organization/leave", { organizationId: org })).status).toBe(200);

    const refused = await ada.browser.get(link.path);
    expect(refused.status).toBe(302);
    expect(refused.headers.get("location")).toBe("/bye?error=SOLE_OWNER_CANNOT_BE_DELETED");
    expect(await rowsOf(ada.userId)).toEqual({ ...INTACT, tokens: 1 });
    expect(await memberRoles(t, org)).toEqual({ [ada.userId]: "owner", [carol.userId]: "member" });

    const json = await ada.browser.get(`/delete-user/callback?token=${link.token}`);
    expect(json.status).toBe(400);
    expect(json.body).toEqual(SOLE_OWNER);

    const promote = { memberId: carolMember, role: "owner", organizationId: org };
    expect((await ada.browser.post("/organization/update-member-role", promote)).status).toBe(200);
    const deleted = await ada.browser.get(link.path);
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get("location")).toBe("/bye");
    expect(await rowsOf(ada.userId)).toEqual(GONE);
    expect(await memberRoles(t, org)).toEqual({ [carol.userId]: "owner" });
  });
});

describe("concurrency (FerretDB does not serialise updates; the sole-owner guard must hold anyway)", () => {
  it("two co-owners deleting themselves at once: never both, and the organization keeps an owner", async () => {
    await openAuth({ user: { deleteUser: { enabled: true } } });
    for (let round = 0; round < 3; round++) {
      const [ada, bob, carol] = await Promise.all(
        ["ada", "bob", "carol"].map((name) => signIn(t, `${name}${round}`)),
      );
      const org = await createOrganization(ada!, `org-${round}`);
      await addMember(t, org, bob!, "owner");
      await addMember(t, org, carol!, "member");

      const results = await Promise.all([ada!, bob!].map((user) => user.browser.post("/delete-user", {})));
      const statuses = results.map((res) => res.status);
      expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(1);
      for (const res of results) if (res.status !== 200) expect(res.body).toEqual(SOLE_OWNER);
      const roles = await memberRoles(t, org);
      expect(Object.values(roles)).toContain("owner");
      expect(roles[carol!.userId]).toBe("member");
      // Whoever was refused is whole and still the owner.
      for (const [index, user] of [ada!, bob!].entries()) {
        const expected = statuses[index] === 200 ? GONE : INTACT;
        expect(await rowsOf(user.userId)).toEqual(expected);
        expect(roles[user.userId]).toBe(statuses[index] === 200 ? undefined : "owner");
      }
    }
  });

  it("a guard that loses puts back the roles already dropped and refuses", async () => {
    await openAuth();
    const [ada, bob, carol] = [await signIn(t, "ada"), await signIn(t, "bob"), await signIn(t, "carol")];
    const coOwned = await createOrganization(ada, "co-owned");
    await addMember(t, coOwned, bob, "owner");
    const soleOwned = await createOrganization(ada, "sole-owned");
    await addMember(t, soleOwned, carol, "member");
    const members = t.db.collection<MemberDoc>("members");
    const adaId = new ObjectId(ada.userId);
    // A stale plan: it believes Ada co-owns both (as if the other owner of the second left since).
    const demote = [
      (await members.findOne({ organizationId: new ObjectId(coOwned), userId: adaId }))!,
      (await members.findOne({ organizationId: new ObjectId(soleOwned), userId: adaId }))!,
    ];
    expect(await releaseOwnerships(t.auth.context, demote)).toBe(false);
    expect(await memberRoles(t, coOwned)).toEqual({ [ada.userId]: "owner", [bob.userId]: "owner" });
    expect(await memberRoles(t, soleOwned)).toEqual({ [ada.userId]: "owner", [carol.userId]: "member" });
  });

  /** Ada is an admin of an organization owned by Bob, with Carol a member; her plan is read now. */
  async function staleAdminPlan() {
    await openAuth({ user: { deleteUser: { enabled: true } } });
    const [ada, bob, carol] = [await signIn(t, "ada"), await signIn(t, "bob"), await signIn(t, "carol")];
    const org = await createOrganization(bob, "org");
    const adaMember = await addMember(t, org, ada, "admin");
    await addMember(t, org, carol, "member");
    const adaDoc = (await t.db.collection<UserDoc>("users").findOne({ _id: new ObjectId(ada.userId) }))!;
    const plan = await readOrganizationRelease(t.auth.context, adaDoc);
    expect(plan.leave).toEqual([new ObjectId(org)]);
    const promote = { memberId: adaMember, role: "owner", organizationId: org };
    expect((await bob.browser.post("/organization/update-member-role", promote)).status).toBe(200);
    return { ada, bob, carol, org, adaDoc, plan };
  }

  it("a member promoted to owner while her deletion runs, whose other owner then left: refused, she keeps the org", async () => {
    const { ada, bob, carol, org, adaDoc, plan } = await staleAdminPlan();
    expect((await bob.browser.post("/organization/leave", { organizationId: org })).status).toBe(200);
    expect(await deleteUserAndData(t.auth.context, adaDoc, plan)).toEqual({
      ok: false,
      code: "SOLE_OWNER_CANNOT_BE_DELETED",
    });
    expect(await memberRoles(t, org)).toEqual({ [ada.userId]: "owner", [carol.userId]: "member" });
    // Signed out (step 2 ran), but whole: she can sign in, transfer, and retry.
    expect(await rowsOf(ada.userId)).toEqual({ ...INTACT, sessions: 0 });
  });

  it("a member promoted while her deletion runs, with the other owner still there: deleted", async () => {
    const { ada, bob, carol, org, adaDoc, plan } = await staleAdminPlan();
    expect(await deleteUserAndData(t.auth.context, adaDoc, plan)).toEqual({ ok: true });
    expect(await memberRoles(t, org)).toEqual({ [bob.userId]: "owner", [carol.userId]: "member" });
    expect(await rowsOf(ada.userId)).toEqual(GONE);
  });
});
