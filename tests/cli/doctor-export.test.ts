import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { signUpPerson } from "#test/admin.ts";
import { addMember, createOrganization, signIn } from "#test/organization.ts";
import { newAuthenticator, registerPasskey } from "#test/passkey.ts";
import { TEST_SECRET, useTestAuth } from "#test/test-auth.ts";
import { doctorAction } from "../../packages/cli/src/commands/doctor.ts";
import { exportAction } from "../../packages/cli/src/commands/export.ts";
import { usersBanAction, usersUnbanAction } from "../../packages/cli/src/commands/users.ts";
import { checkDataInvariants } from "../../packages/cli/src/invariants.ts";
import { testRun } from "./run-context.ts";

/** `tessera doctor` finds broken invariants (written straight into the database) and --fix repairs the safe ones. */
const t = useTestAuth();
const run = () => testRun(t.db.databaseName);

function counts(findings: { check: string; count: number }[]) {
  return Object.fromEntries(
    findings.filter((finding) => finding.count > 0).map((finding) => [finding.check, finding.count]),
  );
}

describe("tessera doctor", () => {
  it("a healthy database: every check passes", async () => {
    const owner = await signIn(t, "healthy-owner");
    await createOrganization(owner, "healthy");
    const result = await doctorAction(
      testRun(t.db.databaseName, { env: { TESSERA_SECRET: `${TEST_SECRET}xx` } }),
      {},
    );
    expect(counts(result.findings)).toEqual({});
    expect(result.ok).toBe(true);
  });

  it("finds orphans, owner-less organizations, stale active organizations and case duplicates; --fix repairs the safe ones", async () => {
    const gone = await signIn(t, "gone");
    const stays = await signIn(t, "stays");
    const org = await createOrganization(gone, "orphaned-org");
    await addMember(t, org, stays, "member");
    const other = await createOrganization(stays, "other-org");
    expect((await registerPasskey(gone.browser, newAuthenticator())).status).toBe(200);
    expect((await registerPasskey(stays.browser, newAuthenticator())).status).toBe(200);
    // Corruption a crash could leave: the user row gone without its rows; an organization row gone.
    await t.db.collection("users").deleteOne({ _id: new ObjectId(gone.userId) });
    await t.db.collection("organizations").deleteOne({ _id: new ObjectId(other) });
    await t.db.collection("invitations").insertOne({
      _id: new ObjectId(),
      organizationId: new ObjectId(other),
      email: "someone@example.com",
      role: "member",
      status: "pending",
      teamId: null,
      inviterId: new ObjectId(stays.userId),
      expiresAt: new Date(Date.now() + 86_400_000),
      createdAt: new Date(),
      slot: `pending:${other}:someone@example.com`,
    });
    await t.db.collection("users").insertOne({
      _id: new ObjectId(),
      email: "Stays@Example.com",
      emailVerified: false,
      name: "Twin",
      image: null,
      createdAt: new Date(),
      updatedAt: new Date(),
    });

    const found = await checkDataInvariants(t.db);
    expect(counts(found)).toEqual({
      "sessions-of-missing-users": 1,
      "accounts-of-missing-users": 1,
      "passkeys-of-missing-users": 1,
      "members-of-missing-users": 1,
      "members-of-missing-organizations": 1,
      "invitations-of-missing-organizations": 1,
      "organizations-without-owner": 1,
      "active-organizations-of-non-members": 1,
      // The deleted user's address claim is left (stale); the row written by hand has none.
      "stale-email-claims": 1,
      "users-without-email-claim": 1,
      // Nor a timeline entry (the deleted user's entry is younger than a minute: left).
      "users-without-timeline-entry": 1,
      "duplicate-emails": 1,
    });

    const listingVersion = async () =>
      ((await t.db.collection("organizations").findOne({ _id: new ObjectId(org) }))?.listingVersion as
        | number
        | undefined) ?? 0;
    const usersVersion = async () =>
      ((await t.db.collection<{ _id: string; version: number }>("listingVersions").findOne({ _id: "users" }))
        ?.version as number | undefined) ?? 0;
    const versionBefore = await listingVersion();
    const usersVersionBefore = await usersVersion();
    const fixed = await doctorAction(run(), { fix: true });
    // The member row it removed was in orphaned-org's member list: no server keeps a listing of it.
    expect(await listingVersion()).toBe(versionBefore + 1);
    // The claim and the timeline entry it wrote change admin list-users' answers: one bump each.
    expect(await usersVersion()).toBe(usersVersionBefore + 2);
    expect(fixed.ok).toBe(false);
    expect(
      counts(fixed.findings.map((finding) => ({ ...finding, count: finding.count - finding.fixed }))),
    ).toEqual({
      "organizations-without-owner": 1,
      "duplicate-emails": 1,
    });
    expect(counts(await checkDataInvariants(t.db))).toEqual({
      "organizations-without-owner": 1,
      "duplicate-emails": 1,
    });
    expect(await t.db.collection("sessions").countDocuments({ userId: new ObjectId(gone.userId) })).toBe(0);
    // The gone user's passkey went; the other user's stays.
    expect(await t.db.collection("passkeys").countDocuments({ userId: new ObjectId(gone.userId) })).toBe(0);
    expect(await t.db.collection("passkeys").countDocuments({ userId: new ObjectId(stays.userId) })).toBe(1);
    expect(await t.db.collection("emailClaims").findOne({ _id: gone.email as never })).toBeNull();
    expect(
      (await t.db.collection("emailClaims").findOne({ _id: "Stays@Example.com" as never }))?.userId,
    ).toBeDefined();
    const session = await t.db.collection("sessions").findOne({ userId: new ObjectId(stays.userId) });
    expect(session?.activeOrganizationId).toBeNull();
  });
});

describe("tessera export", () => {
  it("everything about one user, with no secret and no staff detail in it", async () => {
    const ada = await signIn(t, "ada-export");
    await createOrganization(ada, "ada-org", "Ada Org");
    const passkey = await registerPasskey(ada.browser, newAuthenticator(), { name: "Ada's key" });
    expect(passkey.status).toBe(200);
    const staff = await signUpPerson(t, "staff-export", "admin");
    const staffCall = { remoteAddress: "203.0.113.77", headers: { "user-agent": "StaffConsole/7.1" } };
    const banned = await staff.browser.post(
      "/admin/ban-user",
      { userId: ada.userId, banReason: "staff note from the console" },
      staffCall,
    );
    expect(banned.status).toBe(200);
    await usersUnbanAction(run(), ada.email);
    await usersBanAction(run(), ada.email, { yes: true, reason: "operator note 77" });
    const data = await exportAction(run(), ada.email);
    expect(data.user).toMatchObject({ email: ada.email, banned: true });
    expect(data.accounts).toEqual([expect.objectContaining({ providerId: "credential", hasPassword: true })]);
    expect(data.memberships).toEqual([
      expect.objectContaining({ role: "owner", organization: { name: "Ada Org", slug: "ada-org" } }),
    ]);
    // The same passkeys as the user's own download, without the public key.
    expect(data.passkeys).toEqual([
      expect.objectContaining({ id: passkey.body.id, name: "Ada's key", deviceType: "singleDevice" }),
    ]);
    expect(JSON.stringify(data)).not.toContain(passkey.body.publicKey);
    expect(data.auditEvents.map((event) => [event.action, event.performedBySelf])).toEqual([
      ["user.ban", false],
      ["user.unban", false],
      ["user.ban", false],
    ]);
    const text = JSON.stringify(data);
    for (const staffDetail of [
      staff.id,
      "203.0.113.77",
      "StaffConsole",
      "staff note from the console",
      "operator note 77",
      "cli:tester",
      "banReason",
    ])
      expect(text, staffDetail).not.toContain(staffDetail);
    const account = await t.db.collection("accounts").findOne({ userId: new ObjectId(ada.userId) });
    expect(text).not.toContain(account?.password);
    expect(text).not.toMatch(/"(password|token|keyHash|secret|backupCodes)"/);
  });

  it("an unknown address: exit 3, USER_NOT_FOUND", async () => {
    await expect(exportAction(run(), "nobody-export@example.com")).rejects.toMatchObject({
      code: "USER_NOT_FOUND",
      exitCode: 3,
    });
  });
});
