import { afterAll, describe, expect, it } from "vitest";
import { signIn, useAdminCast } from "#test/admin.ts";
import { TestBrowser } from "#test/browser.ts";

/**
 * Database commands per admin request (docs/architecture.md: count them and keep the count in a test), rate
 * limiting off so only the endpoint's own commands are counted. Every admin request starts with
 * the database session read (sessions + users: the endpoints are `sensitive`).
 */
const SESSION_READ = ["find:sessions", "find:users"];

const { t, admin, user } = useAdminCast({ open: "once" });
const measured: Record<string, number> = {};

afterAll(() => {
  console.info(`[admin-budget] commands per request: ${JSON.stringify(measured)}`);
});

async function measure(label: string, run: () => Promise<{ status: number }>): Promise<string[]> {
  let status = 0;
  const commands = await t.commands(async () => {
    status = (await run()).status;
  });
  expect(status).toBe(200);
  measured[label] = commands.length;
  return commands;
}

describe("database commands per admin endpoint", () => {
  it("list-users: the listing version, then page and total (2) after the session read; the same page again: the version only", async () => {
    const own = await measure("list-users", () => admin.browser.get("/admin/list-users?searchValue=ex"));
    expect(own.slice(0, 3)).toEqual([...SESSION_READ, "find:listingVersions"]);
    expect(own.slice(3).sort()).toEqual(["aggregate:users", "find:users"]);
    const held = await measure("list-users (page held)", () =>
      admin.browser.get("/admin/list-users?searchValue=ex"),
    );
    expect(held).toEqual([...SESSION_READ, "find:listingVersions"]);
  });

  it("get-user: one user read", async () => {
    const own = await measure("get-user", () => admin.browser.get(`/admin/get-user?id=${user.id}`));
    expect(own).toEqual([...SESSION_READ, "find:users"]);
  });

  it("set-role: read, update, audit insert", async () => {
    const own = await measure("set-role", () =>
      admin.browser.post("/admin/set-role", { userId: user.id, role: "user" }),
    );
    expect(own).toEqual([
      ...SESSION_READ,
      "find:users",
      "findAndModify:users",
      "update:listingVersions",
      // Still no impersonate permission: the sessions they impersonate by are swept (J8): read first,
      // for their session.revoked (features/events); none here.
      "find:sessions",
      "insert:auditEvents",
    ]);
  });

  it("ban-user: read, update, session deletes, audit insert", async () => {
    const own = await measure("ban-user", () => admin.browser.post("/admin/ban-user", { userId: user.id }));
    expect(own).toEqual([
      ...SESSION_READ,
      "find:users",
      "findAndModify:users",
      "update:listingVersions",
      // Their sessions and the impersonations they started, read, their session.revoked journaled
      // (features/events), then one delete.
      "find:sessions",
      "insert:pendingDeletions",
      "delete:sessions",
      "insert:auditEvents",
    ]);
  });

  it("unban-user: read, update, audit insert", async () => {
    const own = await measure("unban-user", () =>
      admin.browser.post("/admin/unban-user", { userId: user.id }),
    );
    expect(own).toEqual([
      ...SESSION_READ,
      "find:users",
      "findAndModify:users",
      "update:listingVersions",
      "insert:auditEvents",
    ]);
  });

  it("sign-in of a user who is not banned costs nothing extra for the ban check", async () => {
    const own = await measure("sign-in/email", () => signIn(new TestBrowser(t.auth), user.email));
    // The per-account sign-in throttle: the lane read, the attempt's slot, the success's clear
    // (features/sign-in-throttle).
    expect(own).toEqual([
      "find:users",
      "find:accounts",
      "find:verifications",
      "insert:verifications",
      "delete:verifications",
      // Require SSO (features/sso-domains): the address's domain on the unique verifiedKey index.
      "find:organizationDomains",
      "insert:sessions",
    ]);
  });

  it("list-user-sessions: read the user and their sessions", async () => {
    const own = await measure("list-user-sessions", () =>
      admin.browser.post("/admin/list-user-sessions", { userId: user.id }),
    );
    expect(own).toEqual([...SESSION_READ, "find:users", "find:sessions"]);
  });

  it("revoke-user-sessions: read the user, their sessions and impersonations deleted, audit insert", async () => {
    const own = await measure("revoke-user-sessions", () =>
      admin.browser.post("/admin/revoke-user-sessions", { userId: user.id }),
    );
    expect(own).toEqual([
      ...SESSION_READ,
      "find:users",
      // Read, their session.revoked journaled (features/events), deleted.
      "find:sessions",
      "insert:pendingDeletions",
      "delete:sessions",
      // The impersonations the user started as an admin (review finding 5: none here), the API keys
      // their sessions minted (security hardening, finding 3), then the audit (8).
      "find:sessions",
      "find:apiKeys",
      "insert:auditEvents",
    ]);
  });

  it("impersonate-user and stop-impersonating", async () => {
    const start = await measure("impersonate-user", () =>
      admin.browser.post("/admin/impersonate-user", { userId: user.id }),
    );
    expect(start).toEqual([
      ...SESSION_READ,
      "find:users",
      "insert:auditEvents",
      "insert:sessions",
      // The admin re-read after the insert (review finding 4).
      "find:users",
    ]);
    const stop = await measure("stop-impersonating", () => admin.browser.post("/admin/stop-impersonating"));
    expect(stop).toEqual([
      ...SESSION_READ,
      // An impersonation session is read with its admin: it lives only while that admin does.
      "find:users",
      "find:sessions",
      "insert:pendingDeletions",
      "delete:sessions",
      "find:sessions",
      "find:users",
      "insert:auditEvents",
    ]);
  });

  it("list-audit-events: page and total", async () => {
    const own = await measure("list-audit-events", () =>
      admin.browser.get(`/admin/list-audit-events?subjectId=${user.id}`),
    );
    expect(own.slice(0, 2)).toEqual(SESSION_READ);
    expect(own.slice(2).sort()).toEqual(["aggregate:auditEvents", "find:auditEvents"]);
  });

  it("has-permission: the session read only", async () => {
    const own = await measure("has-permission", () =>
      admin.browser.post("/admin/has-permission", { permissions: { user: ["list"] } }),
    );
    expect(own).toEqual(SESSION_READ);
  });

  it("create-user without a password: user insert and audit insert", async () => {
    const own = await measure("create-user", () =>
      admin.browser.post("/admin/create-user", { email: "made@example.com", name: "Made" }),
    );
    expect(own).toEqual([
      ...SESSION_READ,
      "insert:emailClaims",
      "update:userTimeline",
      "insert:users",
      "update:listingVersions",
      "insert:auditEvents",
    ]);
  });

  it("update-user with a new email: user read, address check, update, audit insert", async () => {
    const own = await measure("update-user", () =>
      admin.browser.post("/admin/update-user", { userId: user.id, data: { email: "moved@example.com" } }),
    );
    expect(own).toEqual([
      ...SESSION_READ,
      "find:users",
      // The new address: is it taken (its user, on the unique email index), then the user before
      // the move, the new claim, the move, the old claim given up (docs/scale.md).
      "find:users",
      "find:users",
      "insert:emailClaims",
      "findAndModify:users",
      "update:listingVersions",
      // The organizations listing the user (none here): their listing versions (db/listing-version.ts).
      "distinct:members",
      "delete:emailClaims",
      // Reset links mailed to the old address die with it.
      "delete:verifications",
      // The old address's notice counts against the mail limit.
      "insert:mailLimits",
      "insert:auditEvents",
    ]);
  });

  it("set-user-password: user and account read, account update, session deletes, audit insert", async () => {
    const own = await measure("set-user-password", () =>
      admin.browser.post("/admin/set-user-password", { userId: user.id, newPassword: "another secret" }),
    );
    expect(own).toEqual([
      ...SESSION_READ,
      "find:users",
      "find:accounts",
      "update:accounts",
      // A new password clears the user's failed sign-ins (features/sign-in-throttle).
      "delete:verifications",
      // The user's sessions, then the impersonations they started (review finding 7), then their
      // pending two-factor challenges and trusted devices, then the reset links mailed before. The
      // sessions are read first for their session.revoked (features/events): none here.
      "find:sessions",
      "find:sessions",
      "find:apiKeys", // keys minted from a session (none here)
      "delete:verifications",
      "delete:verifications",
      "insert:auditEvents",
    ]);
  });

  it("revoke-user-session: find, delete, audit insert", async () => {
    // The password set above must be reset before it signs in (J15): clear the mark as a reset would.
    await t.db.collection("accounts").updateMany({}, { $unset: { passwordResetRequired: "" } });
    const signedIn = await signIn(new TestBrowser(t.auth), "moved@example.com", "another secret");
    const own = await measure("revoke-user-session", () =>
      admin.browser.post("/admin/revoke-user-session", { sessionToken: signedIn.body.token }),
    );
    // The session is read for the audit event's subject (review finding 8), its user for the
    // may-manage rule (security-hardening finding 6).
    expect(own).toEqual([
      ...SESSION_READ,
      "find:sessions",
      "find:users",
      "find:sessions",
      "insert:pendingDeletions", // its session.revoked journaled (features/events)
      "delete:sessions",
      "insert:auditEvents",
    ]);
  });

  it("remove-user: the memberships check, the deletion cascade, the removal marker and the audit insert", async () => {
    const own = await measure("remove-user", () =>
      admin.browser.post("/admin/remove-user", { userId: user.id }),
    );
    expect(own).toEqual([
      ...SESSION_READ,
      "find:users",
      // docs/security.md: the target's memberships (none here; deletion-budget.test.ts has more).
      "find:members",
      "find:sessions", // none to revoke (features/events reads them for their session.revoked)
      // The journal entry auth.cleanup() finishes the deletion from after a crash (issue 16 §3).
      "insert:pendingDeletions",
      "delete:users",
      "update:listingVersions",
      "distinct:members", // the organizations listing the user, bumped (none here)
      "delete:emailClaims", // the address given up with the user (docs/scale.md)
      "delete:userTimeline", // and its timeline entry
      // The memberships sweep after the user row (features/deletion/service.ts step 4): none found.
      "find:members",
      "delete:teamMembers",
      "delete:accounts",
      "delete:verifications",
      "delete:twoFactors",
      "delete:verifications",
      // The user's failed sign-ins (features/sign-in-throttle).
      "delete:verifications",
      "find:apiKeys",
      "delete:passkeys", // the user's passkeys (features/passkey)
      // The entry goes with user.deleted stored, after the answer (features/events).
      "insert:verifications",
      "insert:auditEvents",
    ]);
  });
});
