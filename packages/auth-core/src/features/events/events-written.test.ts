import { describe, expect, it } from "vitest";
import { TestBrowser } from "#test/browser.ts";
import { eventsOf, storedEvents } from "#test/events.ts";
import { signIn } from "#test/organization.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";
import { codeAt, totpFromURI } from "#test/two-factor.ts";

/**
 * docs/architecture.md "Events written with the change": each action through auth.handler stores
 * exactly its events — type, organization, user and data (ids and changed fields, no secret).
 */
const { t } = useTestAuthPerTest({
  open: "each-test",
  overrides: {
    organization: { teams: { enabled: true, allowRemovingAllTeams: true } },
    user: { deleteUser: { enabled: true } },
  },
});

const PASSWORD = "correct horse battery";

async function post(browser: TestBrowser, path: string, body: unknown, status = 200) {
  const res = await browser.post<Record<string, unknown>>(path, body);
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(status);
  return res.body;
}

describe("events of users and sessions", () => {
  it("sign-up writes user.created and session.created; sign-out session.revoked", async () => {
    const ada = new TestBrowser(t.auth);
    let userId = "";
    const signUp = await eventsOf(t, async () => {
      const body = await post(ada, "/sign-up/email", {
        name: "Ada",
        email: "ada@example.com",
        password: PASSWORD,
      });
      userId = (body.user as { id: string }).id;
    });
    const [session] = await t.db.collection("sessions").find({}).toArray();
    const sessionId = session!._id.toHexString();
    expect(signUp).toEqual([
      {
        type: "user.created",
        organizationId: null,
        userId,
        data: { userId, email: "ada@example.com", name: "Ada", emailVerified: false },
      },
      { type: "session.created", organizationId: null, userId, data: { sessionId, userId } },
    ]);
    expect(await eventsOf(t, () => post(ada, "/sign-out", {}))).toEqual([
      { type: "session.revoked", organizationId: null, userId, data: { sessionId, userId } },
    ]);
  });

  it("an update writes user.updated with the changed fields; a password change password.changed", async () => {
    const { browser, userId } = await signIn(t, "ada");
    expect(await eventsOf(t, () => post(browser, "/update-user", { name: "Ada L." }))).toEqual([
      { type: "user.updated", organizationId: null, userId, data: { userId, changes: { name: "Ada L." } } },
    ]);
    const changed = await eventsOf(t, () =>
      post(browser, "/change-password", { currentPassword: PASSWORD, newPassword: "another long password" }),
    );
    expect(changed).toEqual([{ type: "password.changed", organizationId: null, userId, data: { userId } }]);
  });

  it("turning two-factor on and off writes two_factor.enabled and two_factor.disabled", async () => {
    const { browser, userId } = await signIn(t, "ada");
    const enabled = await post(browser, "/two-factor/enable", { password: PASSWORD });
    const secret = totpFromURI(enabled.totpURI as string);
    expect(
      await eventsOf(t, () => post(browser, "/two-factor/verify-totp", { code: codeAt(secret, t.now()) })),
    ).toEqual([{ type: "two_factor.enabled", organizationId: null, userId, data: { userId } }]);
    expect(await eventsOf(t, () => post(browser, "/two-factor/disable", { password: PASSWORD }))).toEqual([
      { type: "two_factor.disabled", organizationId: null, userId, data: { userId } },
    ]);
  });

  it("an API key's creation and deletion write api_key.created and api_key.revoked", async () => {
    const { browser, userId } = await signIn(t, "ada");
    let apiKeyId = "";
    const created = await eventsOf(t, async () => {
      apiKeyId = (await post(browser, "/api-key/create", { name: "ci" })).id as string;
    });
    const data = { apiKeyId, userId, name: "ci" };
    expect(created).toEqual([{ type: "api_key.created", organizationId: null, userId, data }]);
    expect(await eventsOf(t, () => post(browser, "/api-key/delete", { keyId: apiKeyId }))).toEqual([
      { type: "api_key.revoked", organizationId: null, userId, data },
    ]);
  });

  it("deleting one's account writes session.revoked and user.deleted", async () => {
    const { browser, userId } = await signIn(t, "ada");
    const [session] = await t.db.collection("sessions").find({}).toArray();
    const sessionId = session!._id.toHexString();
    const deleted = await eventsOf(t, () => post(browser, "/delete-user", { password: PASSWORD }));
    expect(deleted).toEqual([
      { type: "session.revoked", organizationId: null, userId, data: { sessionId, userId } },
      { type: "user.deleted", organizationId: null, userId, data: { userId } },
    ]);
  });
});

describe("events of organizations", () => {
  it("an organization's life writes its events, each under the organization", async () => {
    const owner = await signIn(t, "owner");
    const guest = await signIn(t, "guest");
    let organizationId = "";
    const created = await eventsOf(t, async () => {
      organizationId = (await post(owner.browser, "/organization/create", { name: "Acme", slug: "acme" }))
        .id as string;
    });
    const [ownerRow] = await t.db.collection("members").find({}).toArray();
    const ownerMember = { memberId: ownerRow!._id.toHexString(), organizationId, userId: owner.userId };
    const scope = { organizationId };
    expect(created).toEqual([
      { type: "member.added", ...scope, userId: owner.userId, data: { ...ownerMember, role: "owner" } },
      {
        type: "organization.created",
        ...scope,
        userId: null,
        data: { organizationId, name: "Acme", slug: "acme" },
      },
    ]);
    expect(
      await eventsOf(t, () =>
        post(owner.browser, "/organization/update", { organizationId, data: { name: "Acme Inc" } }),
      ),
    ).toEqual([
      {
        type: "organization.updated",
        ...scope,
        userId: null,
        data: { organizationId, changes: { name: "Acme Inc" } },
      },
    ]);

    let invitationId = "";
    const invited = await eventsOf(t, async () => {
      const body = await post(owner.browser, "/organization/invite-member", {
        email: guest.email,
        role: "member",
      });
      invitationId = body.id as string;
    });
    const invitation = { invitationId, organizationId, email: guest.email };
    expect(invited).toEqual([
      {
        type: "invitation.created",
        ...scope,
        userId: owner.userId,
        data: { ...invitation, role: "member", teamId: null, inviterId: owner.userId },
      },
    ]);
    let guestMember = { memberId: "", organizationId, userId: guest.userId };
    const accepted = await eventsOf(t, async () => {
      const body = await post(guest.browser, "/organization/accept-invitation", { invitationId });
      guestMember = { ...guestMember, memberId: (body.member as { id: string }).id };
    });
    expect(accepted).toEqual([
      { type: "member.added", ...scope, userId: guest.userId, data: { ...guestMember, role: "member" } },
      { type: "invitation.accepted", ...scope, userId: null, data: invitation },
    ]);
    expect(
      await eventsOf(t, () =>
        post(owner.browser, "/organization/update-member-role", {
          memberId: guestMember.memberId,
          role: "admin",
        }),
      ),
    ).toEqual([
      { type: "member.updated", ...scope, userId: guest.userId, data: { ...guestMember, role: "admin" } },
    ]);

    let teamId = "";
    const team = await eventsOf(t, async () => {
      teamId = (await post(owner.browser, "/organization/create-team", { name: "Red" })).id as string;
    });
    expect(team).toEqual([
      { type: "team.created", ...scope, userId: null, data: { teamId, organizationId, name: "Red" } },
    ]);
    expect(
      await eventsOf(t, () =>
        post(owner.browser, "/organization/update-team", { teamId, data: { name: "Blue" } }),
      ),
    ).toEqual([
      { type: "team.updated", ...scope, userId: null, data: { teamId, organizationId, name: "Blue" } },
    ]);
    const teamMember = { teamId, organizationId, userId: guest.userId };
    expect(
      await eventsOf(t, () =>
        post(owner.browser, "/organization/add-team-member", { teamId, userId: guest.userId }),
      ),
    ).toEqual([{ type: "team_member.added", ...scope, userId: guest.userId, data: teamMember }]);
    expect(
      await eventsOf(t, () =>
        post(owner.browser, "/organization/remove-team-member", { teamId, userId: guest.userId }),
      ),
    ).toEqual([{ type: "team_member.removed", ...scope, userId: guest.userId, data: teamMember }]);
    expect(await eventsOf(t, () => post(owner.browser, "/organization/remove-team", { teamId }))).toEqual([
      { type: "team.deleted", ...scope, userId: null, data: { teamId, organizationId, name: "Blue" } },
    ]);
    expect(
      await eventsOf(t, () =>
        post(owner.browser, "/organization/remove-member", { memberIdOrEmail: guest.email }),
      ),
    ).toEqual([
      { type: "member.removed", ...scope, userId: guest.userId, data: { ...guestMember, role: "admin" } },
    ]);

    const second = await post(owner.browser, "/organization/invite-member", {
      email: guest.email,
      role: "member",
    });
    const canceled = { invitationId: second.id as string, organizationId, email: guest.email };
    expect(
      await eventsOf(t, () =>
        post(owner.browser, "/organization/cancel-invitation", { invitationId: second.id }),
      ),
    ).toEqual([{ type: "invitation.canceled", ...scope, userId: null, data: canceled }]);
    expect(await eventsOf(t, () => post(owner.browser, "/organization/delete", { organizationId }))).toEqual([
      { type: "organization.deleted", ...scope, userId: null, data: { organizationId } },
    ]);
  });
});

describe("the stored events", () => {
  it("ids sort by the time of the change; no event names a secret", async () => {
    const { browser } = await signIn(t, "ada");
    await post(browser, "/api-key/create", { name: "ci" });
    await post(browser, "/change-password", {
      currentPassword: PASSWORD,
      newPassword: "another long password",
    });
    const events = await storedEvents(t);
    expect(events.map((event) => event._id)).toEqual(events.map((event) => event._id).sort());
    for (const event of events) expect(event._id).toMatch(/^evt_[0-9a-f]{28}$/);
    const text = JSON.stringify(events);
    const [key] = await t.db.collection("apiKeys").find({}).toArray();
    const [account] = await t.db.collection("accounts").find({}).toArray();
    const [session] = await t.db.collection("sessions").find({}).toArray();
    expect(text).not.toContain(key!.keyHash);
    expect(text).not.toContain(account!.password);
    expect(text).not.toContain(session!.token);
    // Every event an outbox holds is stored (the repair pass empties outboxes later).
    const stored = new Set(events.map((event) => event._id));
    for (const name of ["users", "sessions", "accounts", "apiKeys"])
      for (const doc of await t.db.collection(name).find({}).toArray())
        for (const event of (doc._events ?? []) as { _id: string }[]) expect(stored).toContain(event._id);
  });
});
