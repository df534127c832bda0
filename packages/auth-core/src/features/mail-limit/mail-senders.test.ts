import type { AuthOptions } from "@tessera/auth-core";
import { describe, expect, it } from "vitest";
import { signUp, TestBrowser } from "#test/browser.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";

/**
 * Issue 27, items 2 and 3 (docs/security.md, "Mail flooding"): a stranger's three invitations from
 * a throwaway organization no longer hold back a real employer's invitation mail, the inviter is
 * told when a mail was not sent (`emailSent`), anonymous requests from one client cannot use up
 * another client's allowance, and `box+1@`, `box+2@` … count as one mailbox while each mail still
 * goes to the address as typed.
 */
const { t, openAuth } = useTestAuthPerTest();

const INVITEE = "grace@example.com";
const PASSWORD = "correct horse battery";

async function setUp(overrides: Omit<Partial<AuthOptions>, "database"> = {}) {
  await openAuth(overrides, { frozen: true });
}

const mailsTo = (email: string, kind: string) =>
  t.outbox.messages().filter((mail) => mail.to === email && mail.kind === kind);

/** A signed-up owner of a new organization. */
async function organizationOwner(email: string, name: string, slug: string) {
  const browser = new TestBrowser(t.auth);
  await signUp(browser, { email, password: PASSWORD, name });
  const organization = await browser.post<{ id: string }>("/organization/create", { name, slug });
  return { browser, organizationId: organization.body.id };
}

function invite(owner: { browser: TestBrowser; organizationId: string }, email: string) {
  return owner.browser.post<{ id: string; email: string; status: string; emailSent: boolean }>(
    "/organization/invite-member",
    { organizationId: owner.organizationId, email, role: "member" },
  );
}

describe("invitation mails are counted per organization", () => {
  it("organization B's invitation arrives after organization A used up its own allowance", async () => {
    await setUp();
    const stranger = await organizationOwner("stranger@example.com", "Throwaway", "throwaway");
    const answers: boolean[] = [];
    // Cancelling and inviting again: the way one organization mails one address over and over.
    for (let n = 1; n <= 4; n++) {
      const invited = await invite(stranger, INVITEE);
      expect(invited.status).toBe(200);
      answers.push(invited.body.emailSent);
      await stranger.browser.post("/organization/cancel-invitation", { invitationId: invited.body.id });
    }
    expect(answers).toEqual([true, true, true, false]);
    expect(mailsTo(INVITEE, "invitation")).toHaveLength(3);

    const employer = await organizationOwner("boss@example.com", "Real Employer", "real-employer");
    const invited = await invite(employer, INVITEE);
    expect(invited.status).toBe(200);
    expect(invited.body).toMatchObject({ email: INVITEE, status: "pending", emailSent: true });
    const mails = mailsTo(INVITEE, "invitation");
    expect(mails).toHaveLength(4);
    expect(mails.at(-1)?.text).toContain("Real Employer");
    expect(mails.at(-1)?.text).toContain(invited.body.id);
    // The stored invitation is the employer's, pending; the response has no other new field.
    const stored = await t.db.collection("invitations").findOne({ email: INVITEE, status: "pending" });
    expect(stored?._id.toHexString()).toBe(invited.body.id);
    expect(Object.keys(invited.body).sort()).toEqual(
      [
        "createdAt",
        "email",
        "emailSent",
        "expiresAt",
        "id",
        "inviterId",
        "organizationId",
        "role",
        "status",
        "teamId",
      ].sort(),
    );
    // A's 3 own slots and B's 1, and the address's 4: nothing else is kept.
    expect(await t.db.collection("mailLimits").countDocuments()).toBe(8);
  });

  it("emailSent is false when the address's total is used up; the invitation is still stored and usable", async () => {
    await setUp({ mailLimit: { recipientMax: 2 } });
    const owners = [
      await organizationOwner("a@example.com", "Org A", "org-a"),
      await organizationOwner("b@example.com", "Org B", "org-b"),
      await organizationOwner("c@example.com", "Org C", "org-c"),
    ];
    const sent: boolean[] = [];
    for (const owner of owners) sent.push((await invite(owner, INVITEE)).body.emailSent);
    expect(sent).toEqual([true, true, false]);
    expect(mailsTo(INVITEE, "invitation")).toHaveLength(2);
    expect(await t.db.collection("invitations").countDocuments({ email: INVITEE, status: "pending" })).toBe(
      3,
    );
    // C's own slot was given back: once the window ends C is not penalised for the refused mail.
    expect(await t.db.collection("mailLimits").countDocuments()).toBe(4);
    // The invitee can still accept C's invitation (signed in with the invited, verified address).
    const grace = new TestBrowser(t.auth);
    await signUp(grace, { email: INVITEE, password: PASSWORD });
    await t.db.collection("users").updateOne({ email: INVITEE }, { $set: { emailVerified: true } });
    const listed = await grace.get<Array<{ id: string; organizationName: string }>>(
      "/organization/list-user-invitations",
    );
    const ofC = listed.body.find((invitation) => invitation.organizationName === "Org C");
    expect((await grace.post("/organization/accept-invitation", { invitationId: ofC?.id })).status).toBe(200);
  });

  it("the app's sendInvitationEmail is called only when the mail is admitted, and emailSent says so", async () => {
    const handed: string[] = [];
    await setUp({
      mailLimit: { kinds: { invitation: { max: 1 } } },
      organization: { sendInvitationEmail: ({ email }) => void handed.push(email) },
    });
    const owner = await organizationOwner("a@example.com", "Org A", "org-a");
    const first = await invite(owner, INVITEE);
    const second = await invite(owner, "ada@example.com");
    expect([first.body.emailSent, second.body.emailSent]).toEqual([true, true]);
    await owner.browser.post("/organization/cancel-invitation", { invitationId: first.body.id });
    const again = await invite(owner, INVITEE);
    expect(again.body.emailSent).toBe(false);
    expect(handed).toEqual([INVITEE, "ada@example.com"]);
    expect(t.outbox.messages()).toHaveLength(0);
  });
});

describe("anonymous requests are counted per client", () => {
  it("a stranger's reset requests do not hold back the owner's, and many clients still stop at 10", async () => {
    await setUp();
    await signUp(new TestBrowser(t.auth), { email: INVITEE, password: PASSWORD });
    const from = (address: string) =>
      new TestBrowser(t.auth).post("/request-password-reset", { email: INVITEE }, { remoteAddress: address });
    for (let n = 0; n < 5; n++) await from("198.51.100.7");
    // Rotating addresses inside one IPv6 /64 is one client.
    for (let n = 1; n <= 3; n++) await from(`2001:db8:1:2::${n}`);
    expect(mailsTo(INVITEE, "reset-password")).toHaveLength(6);
    expect((await from("203.0.113.50")).status).toBe(200);
    expect(mailsTo(INVITEE, "reset-password")).toHaveLength(7);
    for (let n = 1; n <= 6; n++) await from(`192.0.2.${n}`);
    expect(mailsTo(INVITEE, "reset-password")).toHaveLength(10);
  });
});

describe("sub-addresses count as one mailbox, and get their mail as typed", () => {
  it("invitations to box+1@ … box+4@ from one organization: 3 mails, each to its own address", async () => {
    await setUp();
    const owner = await organizationOwner("a@example.com", "Org A", "org-a");
    const sent: boolean[] = [];
    for (let n = 1; n <= 4; n++) sent.push((await invite(owner, `box+${n}@example.com`)).body.emailSent);
    expect(sent).toEqual([true, true, true, false]);
    expect(t.outbox.messages().map((mail) => mail.to)).toEqual([
      "box+1@example.com",
      "box+2@example.com",
      "box+3@example.com",
    ]);
    // The plain address is the same mailbox.
    expect((await invite(owner, "box@example.com")).body.emailSent).toBe(false);
  });

  it("reset requests for box+1@ … box+4@ (four accounts) from one client: 3 mails", async () => {
    await setUp();
    for (let n = 1; n <= 4; n++)
      await signUp(new TestBrowser(t.auth), { email: `box+${n}@example.com`, password: PASSWORD });
    for (let n = 1; n <= 4; n++)
      await new TestBrowser(t.auth).post(
        "/request-password-reset",
        { email: `box+${n}@example.com` },
        { remoteAddress: "198.51.100.7" },
      );
    expect(t.outbox.messages().map((mail) => [mail.kind, mail.to])).toEqual([
      ["reset-password", "box+1@example.com"],
      ["reset-password", "box+2@example.com"],
      ["reset-password", "box+3@example.com"],
    ]);
  });
});
