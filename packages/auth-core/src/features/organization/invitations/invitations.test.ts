import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { TestBrowser } from "#test/browser.ts";
import {
  activeOrganizationOf,
  beforeNextWrite,
  errorBody,
  memberRoles,
  type SignedIn,
  signIn,
  useFixtures,
} from "#test/organization.ts";
import type { TestAuth } from "#test/test-auth.ts";

const fixture = useFixtures();
interface InvitationBody {
  id: string;
  email: string;
  role: string;
  status: string;
  expiresAt: string;
  organizationId: string;
  inviterId: string;
  teamId: string | null;
}
const DAY2 = 172800;
const NOT_FOUND = { status: 400, body: errorBody("INVITATION_NOT_FOUND", "Invitation not found") };

async function invite(
  by: SignedIn,
  organizationId: string,
  email: string,
  extra: Record<string, unknown> = {},
) {
  return by.browser.post<InvitationBody>("/organization/invite-member", {
    organizationId,
    email,
    role: "member",
    ...extra,
  });
}
async function invitationRow(t: TestAuth, id: string) {
  return t.db.collection("invitations").findOne({ _id: new ObjectId(id) });
}

describe("organization/invite-member", () => {
  it("stores a pending invitation for 2 days and mails the link", async () => {
    const { t, O, A } = await fixture();
    const res = await invite(O, A, " New@Example.com ", { role: ["admin"] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      email: "new@example.com",
      role: "admin",
      status: "pending",
      organizationId: A,
      inviterId: O.userId,
      teamId: null,
    });
    expect(new Date(res.body.expiresAt).getTime() - t.now().getTime()).toBeGreaterThan((DAY2 - 5) * 1000);
    expect(await invitationRow(t, res.body.id)).toMatchObject({
      status: "pending",
      email: "new@example.com",
    });
    const mail = t.outbox.latestTo("new@example.com");
    expect(mail?.kind).toBe("invitation");
    expect(mail?.text).toContain(`http://localhost:3000/accept-invitation/${res.body.id}`);
    // Security-hardening finding 7: no inviter or organization name in the subject, only in the body.
    expect(mail?.subject).toBe("You have been invited to an organization on Tessera");
    expect(mail?.text).toContain("org-a");
  });

  it("goes through the sendInvitationEmail hook when one is configured", async () => {
    const sent: unknown[] = [];
    const { t, O, A } = await fixture({
      organization: {
        sendInvitationEmail: (data) => {
          sent.push(data);
        },
        invitationURL: "https://app.example.com/invite?id={id}",
      },
    });
    const res = await invite(O, A, "new@example.com");
    expect(sent).toEqual([
      {
        id: res.body.id,
        email: "new@example.com",
        role: "member",
        url: `https://app.example.com/invite?id=${res.body.id}`,
        organization: { id: A, name: "org-a", slug: "org-a" },
        inviter: { id: O.userId, email: O.email, name: "owner-o" },
      },
    ]);
    expect(t.outbox.latestTo("new@example.com")).toBeNull();
  });

  it("refuses members without invitation:create, roles above the inviter's, unknown roles, bad emails and existing members", async () => {
    const { t, D, M, A } = await fixture();
    expect(await invite(M, A, "n@example.com")).toMatchObject({
      status: 403,
      body: errorBody("INVITATION_CREATE_NOT_ALLOWED", "not allowed to invite users to this organization"),
    });
    expect(await invite(D, A, "n@example.com", { role: "owner" })).toMatchObject({
      status: 403,
      body: errorBody("INVITATION_ROLE_NOT_ALLOWED", "not allowed to invite a user with this role"),
    });
    expect(await invite(D, A, "n@example.com", { role: "boss" })).toMatchObject({
      status: 400,
      body: errorBody("MEMBER_ROLE_NOT_FOUND", "Role not found"),
    });
    expect(await invite(D, A, "not-an-email")).toMatchObject({
      status: 400,
      body: errorBody("INVALID_EMAIL", "Invalid email"),
    });
    expect(await invite(D, A, M.email)).toMatchObject({
      status: 400,
      body: errorBody("MEMBER_ALREADY_EXISTS", "User is already a member of this organization"),
    });
    expect(await invite(D, A, "n@example.com", { teamId: "000000000000000000000000" })).toMatchObject({
      status: 400,
      body: errorBody("TEAM_NOT_FOUND", "Team not found"),
    });
    expect(await t.db.collection("invitations").countDocuments()).toBe(0);
  });

  it("refuses a second invitation of a pending address; resend re-arms it; an expired one is replaced", async () => {
    const { t, O, A } = await fixture();
    const first = await invite(O, A, "n@example.com");
    expect(await invite(O, A, "n@example.com")).toMatchObject({
      status: 400,
      body: errorBody("INVITATION_ALREADY_PENDING", "User is already invited to this organization"),
    });
    t.advance(3600);
    const resent = await invite(O, A, "n@example.com", { resend: true, role: "admin" });
    expect(resent.body).toMatchObject({ id: first.body.id, role: "admin", status: "pending" });
    const moved = new Date(resent.body.expiresAt).getTime() - new Date(first.body.expiresAt).getTime();
    expect(moved).toBeGreaterThanOrEqual(3600 * 1000);
    expect(moved).toBeLessThan(3605 * 1000);
    t.advance(DAY2);
    const fresh = await invite(O, A, "n@example.com");
    expect(fresh.status).toBe(200);
    expect(fresh.body.id).not.toBe(first.body.id);
    expect(await t.db.collection("invitations").countDocuments({ email: "n@example.com" })).toBe(2);
  });

  it("with cancelPendingInvitationsOnReInvite the old invitation is canceled", async () => {
    const { t, O, A } = await fixture({ organization: { cancelPendingInvitationsOnReInvite: true } });
    const first = await invite(O, A, "n@example.com");
    const second = await invite(O, A, "n@example.com");
    expect(second.status).toBe(200);
    expect(await invitationRow(t, first.body.id)).toMatchObject({ status: "canceled" });
    expect(await invitationRow(t, second.body.id)).toMatchObject({ status: "pending" });
  });

  it("caps pending invitations per organization", async () => {
    const { t, O, A } = await fixture({ organization: { invitationLimit: 1 } });
    await invite(O, A, "a@example.com");
    expect(await invite(O, A, "b@example.com")).toMatchObject({
      status: 403,
      body: errorBody("INVITATION_LIMIT_REACHED", "Invitation limit reached"),
    });
    expect(await t.db.collection("invitations").countDocuments()).toBe(1);
    // Counted before the mail: an organization at its limit queues none (docs/architecture.md "Mail").
    expect(await t.db.collection("mails").countDocuments({ to: "b@example.com" })).toBe(0);
  });

  it("stores the mail's row before the invitation; an insert refused meanwhile drops the mail unsent", async () => {
    const f = await fixture();
    const { t, O, A } = f;
    let before: { mails: number; invitations: number } | null = null;
    let winner: { status: number; body: InvitationBody } | null = null;
    // A parallel invite of the address wins the slot between this request's mail row and its insert.
    beforeNextWrite(f, "invitations", "insertOne", async () => {
      before = {
        mails: await t.db.collection("mails").countDocuments({ to: "n@example.com" }),
        invitations: await t.db.collection("invitations").countDocuments(),
      };
      winner = await invite(O, A, "n@example.com");
    });
    expect(await invite(O, A, "n@example.com")).toMatchObject({
      status: 400,
      body: errorBody("INVITATION_ALREADY_PENDING", "User is already invited to this organization"),
    });
    await t.auth.mail.settle();
    expect(before).toEqual({ mails: 1, invitations: 0 });
    expect(winner).toMatchObject({ status: 200 });
    const mails = await t.db
      .collection("mails")
      .find({ to: "n@example.com" }, { sort: { _id: 1 } })
      .toArray();
    expect(mails.map(({ state, text }) => ({ state, text }))).toEqual([
      { state: "dropped", text: null },
      { state: "sent", text: null },
    ]);
    // One mail went out, for the invitation that exists.
    const sent = t.outbox.messages().filter((mail) => mail.to === "n@example.com");
    expect(sent.map((mail) => mail.text.includes(`/accept-invitation/${winner!.body.id}`))).toEqual([true]);
    expect(await t.db.collection("invitations").countDocuments()).toBe(1);
  });
});

describe("organization/accept-invitation", () => {
  it("creates the member with the invitation's role and makes the organization active", async () => {
    const { t, O, A } = await fixture({ session: { cookieCache: { enabled: true } } });
    const sent = await invite(O, A, "NEW@example.com", { role: "admin" });
    const invitee = await signIn(t, "new");
    const res = await invitee.browser.post<{
      invitation: InvitationBody;
      member: { role: string; userId: string };
    }>("/organization/accept-invitation", { invitationId: sent.body.id });
    expect(res.status).toBe(200);
    expect(res.body.invitation).toMatchObject({ id: sent.body.id, status: "accepted" });
    expect(res.body.member).toMatchObject({ role: "admin", userId: invitee.userId, organizationId: A });
    expect(await invitationRow(t, sent.body.id)).toMatchObject({ status: "accepted" });
    expect((await memberRoles(t, A))[invitee.userId]).toBe("admin");
    expect(await activeOrganizationOf(t, invitee.userId)).toEqual([A]);
    const session = await invitee.browser.get<{ session: { activeOrganizationId: string } }>("/get-session");
    expect(session.body.session.activeOrganizationId).toBe(A);
    expect(
      await invitee.browser.post("/organization/accept-invitation", { invitationId: sent.body.id }),
    ).toMatchObject(NOT_FOUND);
  });

  it("refuses another address, an unverified email, an expired, canceled or unknown invitation", async () => {
    const { t, O, X, A } = await fixture();
    const sent = await invite(O, A, "new@example.com");
    expect(
      await X.browser.post("/organization/accept-invitation", { invitationId: sent.body.id }),
    ).toMatchObject({
      status: 403,
      body: errorBody("NOT_INVITATION_RECIPIENT", "not the recipient of the invitation"),
    });
    const invitee = await signIn(t, "new");
    await t.db
      .collection("users")
      .updateOne({ _id: new ObjectId(invitee.userId) }, { $set: { emailVerified: false } });
    expect(
      await invitee.browser.post("/organization/accept-invitation", { invitationId: sent.body.id }),
    ).toMatchObject({
      status: 403,
      body: errorBody(
        "INVITATION_EMAIL_NOT_VERIFIED",
        "Email verification required before accepting or rejecting invitation",
      ),
    });
    await t.db
      .collection("users")
      .updateOne({ _id: new ObjectId(invitee.userId) }, { $set: { emailVerified: true } });
    for (const invitationId of ["000000000000000000000000", "nope"])
      expect(await invitee.browser.post("/organization/accept-invitation", { invitationId })).toMatchObject(
        NOT_FOUND,
      );
    t.advance(DAY2 + 1);
    expect(
      await invitee.browser.post("/organization/accept-invitation", { invitationId: sent.body.id }),
    ).toMatchObject(NOT_FOUND);
    const again = await invite(O, A, "new@example.com");
    await O.browser.post("/organization/cancel-invitation", { invitationId: again.body.id });
    expect(
      await invitee.browser.post("/organization/accept-invitation", { invitationId: again.body.id }),
    ).toMatchObject(NOT_FOUND);
    expect(await memberRoles(t, A)).not.toHaveProperty(invitee.userId);
    expect(await invitationRow(t, sent.body.id)).toMatchObject({ status: "pending" });
  });

  it("accepting without a verified email works when the option is off", async () => {
    const { t, O, A } = await fixture({ organization: { requireEmailVerificationOnInvitation: false } });
    const sent = await invite(O, A, "new@example.com");
    const invitee = await signIn(t, "new");
    await t.db
      .collection("users")
      .updateOne({ _id: new ObjectId(invitee.userId) }, { $set: { emailVerified: false } });
    expect(
      (await invitee.browser.post("/organization/accept-invitation", { invitationId: sent.body.id })).status,
    ).toBe(200);
  });

  it("refuses at the membership limit and leaves the invitation pending", async () => {
    const { t, O, A } = await fixture({ organization: { membershipLimit: 3 } });
    const sent = await invite(O, A, "new@example.com");
    const invitee = await signIn(t, "new");
    expect(
      await invitee.browser.post("/organization/accept-invitation", { invitationId: sent.body.id }),
    ).toMatchObject({
      status: 403,
      body: errorBody("MEMBERSHIP_LIMIT_REACHED", "Organization membership limit reached"),
    });
    expect(await invitationRow(t, sent.body.id)).toMatchObject({ status: "pending" });
    expect(Object.keys(await memberRoles(t, A))).toHaveLength(3);
  });
});

describe("reject, cancel, get and list invitations", () => {
  it("the recipient rejects; nothing else changes", async () => {
    const { t, O, A } = await fixture();
    const sent = await invite(O, A, "new@example.com");
    const invitee = await signIn(t, "new");
    const res = await invitee.browser.post("/organization/reject-invitation", { invitationId: sent.body.id });
    expect(res).toMatchObject({
      status: 200,
      body: { invitation: { id: sent.body.id, status: "rejected" }, member: null },
    });
    expect(await invitationRow(t, sent.body.id)).toMatchObject({ status: "rejected" });
    expect(await memberRoles(t, A)).not.toHaveProperty(invitee.userId);
    expect(
      await invitee.browser.post("/organization/reject-invitation", { invitationId: sent.body.id }),
    ).toMatchObject(NOT_FOUND);
  });

  it("an admin cancels, also an expired one; a member or an outsider cannot; a closed one is not found", async () => {
    const { t, O, D, M, P, A } = await fixture();
    const sent = await invite(O, A, "new@example.com");
    const refused = {
      status: 403,
      body: errorBody("INVITATION_CANCEL_NOT_ALLOWED", "not allowed to cancel this invitation"),
    };
    expect(
      await M.browser.post("/organization/cancel-invitation", { invitationId: sent.body.id }),
    ).toMatchObject(refused);
    expect(
      await P.browser.post("/organization/cancel-invitation", { invitationId: sent.body.id }),
    ).toMatchObject(refused);
    expect(await invitationRow(t, sent.body.id)).toMatchObject({ status: "pending" });
    t.advance(DAY2 + 1);
    const res = await D.browser.post("/organization/cancel-invitation", { invitationId: sent.body.id });
    expect(res).toMatchObject({ status: 200, body: { id: sent.body.id, status: "canceled" } });
    expect(await invitationRow(t, sent.body.id)).toMatchObject({ status: "canceled" });
    expect(
      await D.browser.post("/organization/cancel-invitation", { invitationId: sent.body.id }),
    ).toMatchObject(NOT_FOUND);
  });

  it("get-invitation gives the recipient the organization and inviter; refuses others and gone inviters", async () => {
    const { t, O, D, A, members } = await fixture();
    const sent = await invite(D, A, "new@example.com");
    const invitee = await signIn(t, "new");
    const res = await invitee.browser.get(`/organization/get-invitation?id=${sent.body.id}`);
    expect(res).toMatchObject({
      status: 200,
      body: { id: sent.body.id, organizationName: "org-a", organizationSlug: "org-a", inviterEmail: D.email },
    });
    expect(await O.browser.get(`/organization/get-invitation?id=${sent.body.id}`)).toMatchObject({
      status: 403,
    });
    await O.browser.post("/organization/remove-member", { memberIdOrEmail: members.D });
    expect(await invitee.browser.get(`/organization/get-invitation?id=${sent.body.id}`)).toMatchObject({
      status: 400,
      body: errorBody("INVITER_NO_LONGER_MEMBER", "Inviter is no longer a member"),
    });
    await t.db.collection("organizations").deleteOne({ _id: new ObjectId(A) });
    expect(await invitee.browser.get(`/organization/get-invitation?id=${sent.body.id}`)).toMatchObject({
      status: 400,
      body: errorBody("FAILED_TO_RETRIEVE_INVITATION", "Failed to retrieve invitation"),
    });
  });

  it("list-invitations for members only; list-user-invitations for the invitee", async () => {
    const { t, O, M, X, A, B, P } = await fixture();
    await invite(O, A, "new@example.com");
    await invite(P, B, "new@example.com");
    await invite(O, A, "other@example.com");
    const listed = await M.browser.get<InvitationBody[]>(
      `/organization/list-invitations?organizationId=${A}`,
    );
    expect(listed.body.map((row) => row.email)).toEqual(["other@example.com", "new@example.com"]);
    expect(await X.browser.get(`/organization/list-invitations?organizationId=${A}`)).toMatchObject({
      status: 403,
    });
    const invitee = await signIn(t, "new");
    const mine = await invitee.browser.get<{ organizationName: string; email: string }[]>(
      "/organization/list-user-invitations",
    );
    expect(mine.body.map((row) => row.organizationName).sort()).toEqual(["org-a", "org-b"]);
    expect(
      (await invitee.browser.get("/organization/list-user-invitations?email=other@example.com")).status,
    ).toBe(400);
    expect(await new TestBrowser(t.auth).get("/organization/list-user-invitations")).toMatchObject({
      status: 401,
      body: errorBody("UNAUTHORIZED", "unauthorized"),
    });
    const { data } = await t.auth.api.listUserInvitations({ query: { email: "other@example.com" } });
    expect(data).toMatchObject([{ email: "other@example.com", organizationName: "org-a" }]);
    await t.db
      .collection("users")
      .updateOne({ _id: new ObjectId(invitee.userId) }, { $set: { emailVerified: false } });
    expect(await invitee.browser.get("/organization/list-user-invitations")).toMatchObject({ status: 403 });
  });
});
