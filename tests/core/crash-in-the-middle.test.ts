import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { TestBrowser } from "#test/browser.ts";
import { PASSWORD } from "#test/deletion.ts";
import { haltAtNext } from "#test/halt.ts";
import { activeOrganizationOf, createOrganization, type SignedIn, signIn } from "#test/organization.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";
import { checkDataInvariants } from "../../packages/cli/src/invariants.ts";

/**
 * "Crash in the middle": each multi-write operation stopped between two of its writes
 * (haltAtNext: the command and everything after never run, as after a SIGKILL there), then what
 * repairs the state — the same request again, or auth.cleanup() — on the real database. The table
 * is in docs/scale.md; tests/reliability/crash.ts kills the real server at random points.
 */
const { t, openAuth } = useTestAuthPerTest();

/** The invariant checker's findings (tessera doctor), as { check: count }. */
async function findings(): Promise<Record<string, number>> {
  const all = await checkDataInvariants(t.db);
  return Object.fromEntries(all.filter((finding) => finding.count > 0).map((f) => [f.check, f.count]));
}

const signUpBody = { name: "Ada", email: "ada@example.com", password: PASSWORD };

describe("sign-up cut by a crash", () => {
  it("after its credential account, before its user row: the next sign-up succeeds and removes the orphan account", async () => {
    await openAuth();
    const reached = haltAtNext(t, "users", "insertOne");
    void new TestBrowser(t.auth).post("/sign-up/email", signUpBody);
    await reached;
    const claim = await t.db.collection("emailClaims").findOne({ _id: "ada@example.com" as never });
    const abandoned = claim?.userId as ObjectId;
    expect(await t.db.collection("users").countDocuments()).toBe(0);
    expect(await t.db.collection("accounts").countDocuments({ userId: abandoned })).toBe(1);
    expect(await findings()).toEqual({ "accounts-of-missing-users": 1, "stale-email-claims": 1 });

    const again = await new TestBrowser(t.auth).post<{ user: { id: string } }>("/sign-up/email", signUpBody);
    expect(again.status).toBe(200);
    expect(await t.db.collection("accounts").countDocuments({ userId: abandoned })).toBe(0);
    expect(await t.db.collection("users").countDocuments()).toBe(1);
    expect(await findings()).toEqual({});
    const signedIn = await new TestBrowser(t.auth).post("/sign-in/email", {
      email: "ada@example.com",
      password: PASSWORD,
    });
    expect(signedIn.status).toBe(200);
  });

  it("after its address claim only: the next sign-up takes the claim over", async () => {
    await openAuth();
    const reached = haltAtNext(t, "accounts", "insertOne");
    void new TestBrowser(t.auth).post("/sign-up/email", signUpBody);
    await reached;
    expect(await t.db.collection("users").countDocuments()).toBe(0);
    expect(await findings()).toEqual({ "stale-email-claims": 1 });

    expect((await new TestBrowser(t.auth).post("/sign-up/email", signUpBody)).status).toBe(200);
    expect(await findings()).toEqual({});
  });
});

/** An owner with an organization, and a member who joined it by invitation (their session has it active). */
async function organizationWithMember() {
  const owner = await signIn(t, "owner");
  const organizationId = await createOrganization(owner, "acme");
  const member = await signIn(t, "member");
  const invitationId = await invite(owner, organizationId, member.email);
  const accepted = await member.browser.post("/organization/accept-invitation", { invitationId });
  expect(accepted.status).toBe(200);
  return { owner, member, organizationId };
}

async function invite(owner: SignedIn, organizationId: string, email: string): Promise<string> {
  const sent = await owner.browser.post<{ id: string }>("/organization/invite-member", {
    organizationId,
    email,
    role: "member",
  });
  expect(sent.status).toBe(200);
  return sent.body.id;
}

describe("accept-invitation cut by a crash after the member insert", () => {
  it("leaves a member whose invitation is pending; the retry is refused, auth.cleanup() closes it as accepted", async () => {
    await openAuth();
    const owner = await signIn(t, "owner");
    const organizationId = await createOrganization(owner, "acme");
    const invitee = await signIn(t, "invitee");
    const invitationId = await invite(owner, organizationId, invitee.email);
    const reached = haltAtNext(t, "invitations", "updateOne");
    void invitee.browser.post("/organization/accept-invitation", { invitationId });
    await reached;
    const invitation = () => t.db.collection("invitations").findOne({ _id: new ObjectId(invitationId) });
    const members = () =>
      t.db.collection("members").countDocuments({
        organizationId: new ObjectId(organizationId),
        userId: new ObjectId(invitee.userId),
      });
    expect(await members()).toBe(1);
    expect((await invitation())?.status).toBe("pending");

    // The claim is taken: the same accept again is refused, as a concurrent one would be.
    const retry = await invitee.browser.post<{ code: string }>("/organization/accept-invitation", {
      invitationId,
    });
    expect(retry.status).toBe(400);
    expect(retry.body.code).toBe("INVITATION_NOT_FOUND");

    expect(await t.auth.cleanup()).toMatchObject({ finishedAccepts: 1 });
    expect((await invitation())?.status).toBe("accepted");
    expect(await members()).toBe(1);
    expect(await t.auth.cleanup()).toMatchObject({ finishedAccepts: 0 });
  });

  it("cut after its claim only: the invitation is refused until auth.cleanup() gives an abandoned claim back (10 minutes on)", async () => {
    await openAuth();
    const owner = await signIn(t, "owner");
    const organizationId = await createOrganization(owner, "acme");
    const invitee = await signIn(t, "invitee");
    const invitationId = await invite(owner, organizationId, invitee.email);
    const reached = haltAtNext(t, "members", "insertOne");
    void invitee.browser.post("/organization/accept-invitation", { invitationId });
    await reached;
    const accept = () =>
      invitee.browser.post<{ code?: string }>("/organization/accept-invitation", { invitationId });
    expect((await accept()).body.code).toBe("INVITATION_NOT_FOUND");
    // A claim this young may belong to a request still running: kept.
    expect(await t.auth.cleanup()).toMatchObject({ finishedAccepts: 0, reopenedInvitations: 0 });
    t.advance(11 * 60);
    expect(await t.auth.cleanup()).toMatchObject({ finishedAccepts: 0, reopenedInvitations: 1 });
    expect((await accept()).status).toBe(200);
    expect((await t.db.collection("invitations").findOne({ _id: new ObjectId(invitationId) }))?.status).toBe(
      "accepted",
    );
  });

  it("a claimed pending invitation of someone who was a member before the claim is left alone", async () => {
    await openAuth();
    const { owner, member, organizationId } = await organizationWithMember();
    const second = await invite(owner, organizationId, "later@example.com");
    await t.db
      .collection("invitations")
      .updateOne({ _id: new ObjectId(second) }, { $set: { email: member.email } });
    // A reject of it stopped after its claim: the member row is older than the claim.
    t.advance(60);
    const reached = haltAtNext(t, "invitations", "updateOne");
    void member.browser.post("/organization/reject-invitation", { invitationId: second });
    await reached;
    expect(await t.auth.cleanup()).toMatchObject({ finishedAccepts: 0 });
    expect((await t.db.collection("invitations").findOne({ _id: new ObjectId(second) }))?.status).toBe(
      "pending",
    );
  });
});

describe("delete-user cut by a crash after the user row", () => {
  it("leaves the journal entry and unreachable rows; auth.cleanup() finishes the deletion", async () => {
    await openAuth({ user: { deleteUser: { enabled: true } } });
    const { member, organizationId } = await organizationWithMember();
    const userId = new ObjectId(member.userId);
    const reached = haltAtNext(t, "accounts", "deleteMany");
    void member.browser.post("/delete-user", { password: PASSWORD });
    await reached;
    expect(await t.db.collection("users").countDocuments({ _id: userId })).toBe(0);
    expect(await t.db.collection("accounts").countDocuments({ userId })).toBe(1);
    expect(await findings()).toEqual({ "accounts-of-missing-users": 1, "unfinished-deletions": 1 });
    // Signed out by the deletion: the retry cannot repair it.
    expect((await member.browser.post("/delete-user", { password: PASSWORD })).status).toBe(401);

    expect(await t.auth.cleanup()).toMatchObject({ finishedUserDeletions: 1 });
    expect(await t.db.collection("accounts").countDocuments({ userId })).toBe(0);
    expect(await t.db.collection("members").countDocuments({ userId })).toBe(0);
    expect(await t.db.collection("pendingDeletions").countDocuments()).toBe(0);
    expect(await findings()).toEqual({});
    expect(
      await t.db.collection("members").countDocuments({ organizationId: new ObjectId(organizationId) }),
    ).toBe(1);
    // The address is free again.
    const again = await new TestBrowser(t.auth).post("/sign-up/email", {
      ...signUpBody,
      email: member.email,
    });
    expect(again.status).toBe(200);
  });

  it("between the user row and its address claim: auth.cleanup() gives the address up", async () => {
    await openAuth({ user: { deleteUser: { enabled: true } } });
    const { member } = await organizationWithMember();
    const reached = haltAtNext(t, "emailClaims", "deleteOne");
    void member.browser.post("/delete-user", { password: PASSWORD });
    await reached;
    expect(await t.db.collection("emailClaims").countDocuments({ _id: member.email as never })).toBe(1);
    expect(await findings()).toMatchObject({ "stale-email-claims": 1, "unfinished-deletions": 1 });

    expect(await t.auth.cleanup()).toMatchObject({ finishedUserDeletions: 1 });
    expect(await t.db.collection("emailClaims").countDocuments({ _id: member.email as never })).toBe(0);
    expect(await findings()).toEqual({});
  });

  it("a deletion that ends leaves no journal entry", async () => {
    await openAuth({ user: { deleteUser: { enabled: true } } });
    const { member } = await organizationWithMember();
    expect((await member.browser.post("/delete-user", { password: PASSWORD })).status).toBe(200);
    // The entry is forgotten with its user.deleted stored, off the answer path (features/events
    // completeJournaledDeletion): the deletion ends once that relay has.
    await t.auth.context.collections.eventHub.settle();
    expect(await t.db.collection("pendingDeletions").countDocuments()).toBe(0);
    expect(await findings()).toEqual({});
  });
});

describe("organization delete cut by a crash after the organization row", () => {
  it("leaves members, invitations and an active organization; auth.cleanup() finishes the cascade", async () => {
    await openAuth();
    const { owner, member, organizationId } = await organizationWithMember();
    await invite(owner, organizationId, "pending@example.com");
    const id = new ObjectId(organizationId);
    const reached = haltAtNext(t, "members", "deleteMany");
    void owner.browser.post("/organization/delete", { organizationId });
    await reached;
    expect(await t.db.collection("organizations").countDocuments({ _id: id })).toBe(0);
    expect(await findings()).toEqual({
      "members-of-missing-organizations": 2,
      "invitations-of-missing-organizations": 2,
      "active-organizations-of-non-members": 2,
      "unfinished-deletions": 1,
    });
    // The owner's retry finds the organization gone.
    const retry = await owner.browser.post<{ code: string }>("/organization/delete", { organizationId });
    expect([retry.status, retry.body.code]).toEqual([400, "ORGANIZATION_NOT_FOUND"]);

    expect(await t.auth.cleanup()).toMatchObject({ finishedOrganizationDeletions: 1 });
    expect(await t.db.collection("members").countDocuments({ organizationId: id })).toBe(0);
    expect(await t.db.collection("invitations").countDocuments({ organizationId: id })).toBe(0);
    expect(await activeOrganizationOf(t, member.userId)).toEqual([null]);
    expect(await findings()).toEqual({});
  });
});

describe("remove-member cut by a crash", () => {
  it("before the member row goes, the member's sessions are already cleared; the same request again finishes", async () => {
    await openAuth();
    const { owner, member, organizationId } = await organizationWithMember();
    expect(await activeOrganizationOf(t, member.userId)).toEqual([organizationId]);
    const remove = () =>
      owner.browser.post("/organization/remove-member", { memberIdOrEmail: member.email, organizationId });
    // The member row goes through features/events deleteRowsWithEvents: its journal entry (with
    // member.removed) first, then the row's delete, a deleteMany by id.
    const reached = haltAtNext(t, "members", "deleteMany");
    void remove();
    await reached;
    expect(await activeOrganizationOf(t, member.userId)).toEqual([null]);
    expect(await t.db.collection("members").countDocuments({ userId: new ObjectId(member.userId) })).toBe(1);
    // No orphan: only the journal entry the cut deletion wrote.
    expect(await findings()).toEqual({ "unfinished-deletions": 1 });

    expect((await remove()).status).toBe(200);
    expect(await t.db.collection("members").countDocuments({ userId: new ObjectId(member.userId) })).toBe(0);
    await t.auth.context.collections.eventHub.settle();
    // The retry took the row's claim over from the cut attempt's entry: member.removed is told once,
    // by the retry, and nothing is left for the repair pass.
    expect(await findings()).toEqual({});
    const removals = { type: "member.removed", "data.userId": member.userId };
    expect(await t.db.collection("events").countDocuments(removals)).toBe(1);
    t.advance(61);
    expect(await t.auth.cleanup()).toMatchObject({ repairedEvents: 0 });
    expect(await t.db.collection("events").countDocuments(removals)).toBe(1);
  });
});
