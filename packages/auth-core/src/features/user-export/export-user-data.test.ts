import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { signUpPerson } from "#test/admin.ts";
import { signUpUser, TestBrowser } from "#test/browser.ts";
import { newAuthenticator, registerPasskey } from "#test/passkey.ts";
import { type TestAuth, useFreshTestAuth } from "#test/test-auth.ts";
import type { UserExport } from "../../contracts/user-export.ts";

/**
 * GET /export-user-data, "download my data" (docs/security.md "The user's own data"): the user's
 * own rows, no secret, and of what administrators did to them only what happened and when.
 */
const freshTestAuth = useFreshTestAuth();
const PASSWORD = "correct horse battery";
const STAFF = { remoteAddress: "203.0.113.77", headers: { "user-agent": "StaffConsole/7.1" } };
const OTHER_STAFF = { remoteAddress: "203.0.113.78", headers: { "user-agent": "StaffTablet/2.0" } };
const ADA_DEVICE = { remoteAddress: "198.51.100.5", headers: { "user-agent": "AdaPhone/1.0" } };
const BAN_REASON = "Suspected fraud ring 42";
const IMPERSONATION_REASON = "Ticket 9913 internal";

async function signInAda(t: TestAuth): Promise<TestBrowser> {
  const browser = new TestBrowser(t.auth);
  const res = await browser.post(
    "/sign-in/email",
    { email: "ada@example.com", password: PASSWORD },
    ADA_DEVICE,
  );
  expect(res.status).toBe(200);
  return browser;
}

async function expectOk(call: Promise<{ status: number; body: unknown }>): Promise<void> {
  const res = await call;
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe("GET /export-user-data", () => {
  it("after a ban, an unban, an impersonation and a role change: no administrator's id, IP, user agent or note anywhere", async () => {
    const t = await freshTestAuth({ organization: { requireEmailVerificationOnInvitation: false } });
    const staff = await signUpPerson(t, "staff", "admin");
    const otherStaff = await signUpPerson(t, "other-staff", "admin");
    const ada = await signUpUser(t, { email: "ada@example.com", emailVerified: true });
    const owner = await signUpUser(t, { email: "owner@example.com", emailVerified: true });

    await expectOk(
      staff.browser.post(
        "/admin/ban-user",
        { userId: ada.id, banReason: BAN_REASON, banExpiresIn: 3600 },
        STAFF,
      ),
    );
    await expectOk(staff.browser.post("/admin/unban-user", { userId: ada.id }, STAFF));

    // Ada's own activity: a session on her phone, an organization, an invitation sent and one
    // received, an API key, a passkey and a second factor being set up.
    const browser = await signInAda(t);
    const authenticator = newAuthenticator({
      aaguid: "ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4",
      flags: { be: true, bs: true },
    });
    const passkey = await registerPasskey(browser, authenticator, { name: "Ada's phone" });
    expect(passkey.status).toBe(200);
    await expectOk(browser.post("/organization/create", { name: "Ada Org", slug: "ada-org" }, ADA_DEVICE));
    await expectOk(browser.post("/organization/invite-member", { email: "bob@example.com", role: "member" }));
    await expectOk(owner.browser.post("/organization/create", { name: "Other", slug: "other-org" }));
    await expectOk(
      owner.browser.post("/organization/invite-member", { email: "ada@example.com", role: "member" }),
    );
    const key = await browser.post<{ key: string }>("/api-key/create", { name: "laptop" });
    expect(key.status).toBe(200);
    const enabled = await browser.post<{ totpURI: string }>("/two-factor/enable", { password: PASSWORD });
    expect(enabled.status).toBe(200);

    // An administrator impersonating Ada, still under way: that session is the administrator's.
    await expectOk(
      staff.browser.post("/admin/impersonate-user", { userId: ada.id, reason: IMPERSONATION_REASON }, STAFF),
    );
    await expectOk(
      otherStaff.browser.post("/admin/set-role", { userId: ada.id, role: "admin" }, OTHER_STAFF),
    );
    const asImpersonator = await staff.browser.get("/export-user-data", STAFF);
    expect(asImpersonator.status).toBe(403);
    expect(asImpersonator.body).toEqual({
      code: "NOT_ALLOWED_WHILE_IMPERSONATING",
      message: "You cannot perform this action while impersonating a user",
    });

    const res = await browser.get<UserExport>("/export-user-data", ADA_DEVICE);
    expect(res.status).toBe(200);
    const data = res.body;
    const text = JSON.stringify(data);
    for (const staffDetail of [
      staff.id,
      otherStaff.id,
      "203.0.113.77",
      "203.0.113.78",
      "StaffConsole",
      "StaffTablet",
      BAN_REASON,
      IMPERSONATION_REASON,
      "banReason",
      "impersonatedBy",
      "adminSessionId",
    ])
      expect(text, staffDetail).not.toContain(staffDetail);

    // No secret: password hash, session tokens, the API key and its hash, the TOTP secret; nor the
    // passkey's public key, credential id and user handle, which only the server's checks use.
    const adaId = new ObjectId(ada.id);
    const passkeyRow = await t.db.collection("passkeys").findOne({ userId: adaId });
    for (const serverOnly of [passkeyRow?.publicKey, passkeyRow?.credentialID, passkeyRow?.userHandle]) {
      expect(typeof serverOnly).toBe("string");
      expect(text).not.toContain(serverOnly);
    }
    const secrets = [
      ...(await t.db.collection("accounts").find({ userId: adaId }).toArray()).map((row) => row.password),
      ...(await t.db.collection("sessions").find({ userId: adaId }).toArray()).map((row) => row.token),
      ...(await t.db.collection("apiKeys").find({ userId: adaId }).toArray()).map((row) => row.keyHash),
      ...(await t.db.collection("twoFactors").find({ userId: adaId }).toArray()).flatMap((row) => [
        row.secret,
        row.backupCodes,
      ]),
      key.body.key,
      new URL(enabled.body.totpURI).searchParams.get("secret"),
    ];
    expect(secrets.filter((secret) => typeof secret === "string" && secret.length > 8)).toHaveLength(8);
    for (const secret of secrets) expect(text).not.toContain(secret);

    // What happened, and when, stays.
    expect(data.auditEvents.map((event) => [event.action, event.performedBySelf, event.details])).toEqual([
      ["user.ban", false, { banExpires: expect.any(String) }],
      ["user.unban", false, null],
      ["impersonation.start", false, null],
      ["user.set-role", false, { from: "user", to: "admin" }],
    ]);
    expect(data.user).toMatchObject({ id: ada.id, email: "ada@example.com", role: "admin", banned: false });
    // Her own data, all of it.
    expect(data.sessions).toEqual([
      expect.objectContaining({ ipAddress: "198.51.100.5", userAgent: "AdaPhone/1.0" }),
    ]);
    expect(data.accounts).toEqual([
      expect.objectContaining({ providerId: "credential", hasPassword: true, hasProviderTokens: false }),
    ]);
    expect(data.memberships).toEqual([
      expect.objectContaining({ role: "owner", organization: { name: "Ada Org", slug: "ada-org" } }),
    ]);
    expect(data.invitationsSent).toEqual([
      expect.objectContaining({ email: "bob@example.com", role: "member", status: "pending" }),
    ]);
    expect(data.invitationsReceived).toEqual([
      expect.objectContaining({ role: "member", organization: { name: "Other", slug: "other-org" } }),
    ]);
    expect(data.apiKeys).toEqual([expect.objectContaining({ name: "laptop", enabled: true })]);
    // The export's passkey in this key order (the answer's text).
    expect(Object.keys(data.passkeys[0] ?? {})).toEqual([
      "id",
      "name",
      "aaguid",
      "authenticatorName",
      "deviceType",
      "backedUp",
      "transports",
      "createdAt",
      "lastUsedAt",
    ]);
    expect(data.passkeys).toEqual([
      {
        id: passkey.body.id,
        name: "Ada's phone",
        aaguid: "ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4",
        authenticatorName: "Google Password Manager",
        deviceType: "multiDevice",
        backedUp: true,
        transports: ["internal", "hybrid"],
        createdAt: expect.any(String),
        lastUsedAt: null,
      },
    ]);
    expect(data.twoFactor).toEqual({ enabled: false, verified: false, createdAt: expect.any(String) });
  });

  it("keeps what the user did themselves, and never the reason of a ban on their own row", async () => {
    const t = await freshTestAuth();
    const ada = await signUpUser(t, { email: "ada@example.com" });
    await t.db
      .collection("users")
      .updateOne({ _id: new ObjectId(ada.id) }, { $set: { banReason: BAN_REASON, role: "admin" } });
    const bob = await signUpUser(t, { email: "bob@example.com" });
    // Ada, an administrator, revoking her own sessions through the admin area: her own event.
    await expectOk(ada.browser.post("/admin/set-role", { userId: bob.id, role: "admin" }, ADA_DEVICE));
    await expectOk(ada.browser.post("/admin/revoke-user-sessions", { userId: ada.id }, ADA_DEVICE));
    const browser = await signInAda(t);
    const res = await browser.get<UserExport>("/export-user-data");
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).not.toContain(BAN_REASON);
    expect(res.body.auditEvents).toEqual([
      expect.objectContaining({
        action: "session.revoke-all",
        performedBySelf: true,
        ipAddress: "198.51.100.5",
        userAgent: "AdaPhone/1.0",
      }),
    ]);
  });

  it("costs a fixed number of indexed reads, whatever the user holds (docs/architecture.md)", async () => {
    const t = await freshTestAuth();
    const ada = await signUpUser(t, { email: "ada@example.com", emailVerified: true });
    await expectOk(ada.browser.post("/organization/create", { name: "Ada Org", slug: "ada-org" }));
    let status = 0;
    const commands = await t.commands(async () => {
      status = (await ada.browser.get("/export-user-data")).status;
    });
    expect(status).toBe(200);
    // The session and its user, then the export: sessions, accounts, members, team rows, invitations
    // to and from the user, keys, passkeys, second factor and audit trail at once; the organizations' names.
    expect(commands.slice(0, 2)).toEqual(["find:sessions", "find:users"]);
    expect(commands.slice(2, 13).sort()).toEqual(
      [
        "find:accounts",
        "find:apiKeys",
        "find:passkeys",
        "find:auditEvents",
        "find:invitations",
        "find:invitations",
        "find:members",
        "find:sessions",
        "find:teamMembers",
        "find:twoFactors",
        "find:organizations",
      ].sort(),
    );
    expect(commands).toHaveLength(13);
    // The two reads by a field no other query uses have their index (migration 0011).
    const names = async (collection: string) =>
      (await t.db.collection(collection).indexes()).map((index) => index.name);
    expect(await names("invitations")).toContain("inviterId");
    expect(await names("teamMembers")).toContain("userId");
  });

  it("answers 401 without a session and 403 to a session older than the fresh age", async () => {
    const t = await freshTestAuth({ session: { freshAge: 3600 } });
    const anonymous = await new TestBrowser(t.auth).get("/export-user-data");
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ code: "UNAUTHORIZED", message: "unauthorized" });
    const ada = await signUpUser(t, { email: "ada@example.com" });
    t.advance(7200);
    const stale = await ada.browser.get("/export-user-data");
    expect(stale.status).toBe(403);
    expect(stale.body).toEqual({ code: "SESSION_NOT_FRESH", message: "Session is not fresh" });
    const fresh = await signInAda(t);
    expect((await fresh.get("/export-user-data")).status).toBe(200);
  });
});
