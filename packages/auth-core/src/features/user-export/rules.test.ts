import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { AUDIT_ACTIONS } from "../../contracts/admin-fields.ts";
import type { AccountDoc, ApiKeyDoc, AuditEventDoc, SessionDoc, UserDoc } from "../../db/documents.ts";
import {
  DETAILS_SHOWN_TO_SUBJECT,
  toExportedAccount,
  toExportedApiKey,
  toExportedAuditEvent,
  toExportedSessions,
  toExportedUser,
} from "./rules.ts";

const ada = new ObjectId();
const staff = new ObjectId();
const at = new Date("2026-11-28T12:00:00Z");

function event(overrides: Partial<AuditEventDoc>): AuditEventDoc {
  return {
    _id: new ObjectId(),
    action: "user.ban",
    actorId: staff,
    actor: null,
    subjectId: ada,
    reason: "internal note",
    ipAddress: "203.0.113.77",
    userAgent: "StaffConsole/7.1",
    details: null,
    createdAt: at,
    ...overrides,
  };
}

describe("an audit event as its subject sees it", () => {
  it.each([
    ["user.ban", { banExpires: at }, { banExpires: at }],
    ["user.set-role", { from: "user", to: "admin" }, { from: "user", to: "admin" }],
    ["impersonation.start", { adminSessionId: "a1" }, null],
    ["session.revoke", { sessionId: "s1", impersonatedBy: staff }, { sessionId: "s1" }],
    [
      "user.set-password",
      { sessionsRevoked: 2, impersonationsRevoked: 1, apiKeysRevoked: 0 },
      { sessionsRevoked: 2, apiKeysRevoked: 0 },
    ],
    [
      "organization.set-member-role",
      { organizationId: "o1", before: "member", after: "admin" },
      { organizationId: "o1", before: "member", after: "admin" },
    ],
    ["session.revoke-all", { sessions: 3, impersonations: 1, apiKeys: 0 }, { sessions: 3, apiKeys: 0 }],
    [
      "passkey.remove",
      { passkeyId: "p1", name: "Phone", credentialID: "c1" },
      { passkeyId: "p1", name: "Phone" },
    ],
    ["a.future-action", { anything: "at all" }, null],
  ] as const)(
    "done by an administrator, %s: what happened and when, no actor, address, agent or reason",
    (action, details, shown) => {
      const exported = toExportedAuditEvent(event({ action, details: { ...details } }), ada);
      expect(exported).toEqual({
        id: expect.any(String),
        action,
        createdAt: at,
        performedBySelf: false,
        reason: null,
        ipAddress: null,
        userAgent: null,
        details: shown,
      });
      expect(JSON.stringify(exported)).not.toContain(staff.toHexString());
    },
  );

  it("done by an operator from a terminal (actor cli:…, actorId null): the operator's name is left out", () => {
    const exported = toExportedAuditEvent(event({ actorId: null, actor: "cli:alice", ipAddress: null }), ada);
    expect(exported.performedBySelf).toBe(false);
    expect(JSON.stringify(exported)).not.toContain("alice");
  });

  it("done by the user themselves: all of it", () => {
    const own = event({ action: "session.revoke-all", actorId: ada, details: { count: 2 } });
    expect(toExportedAuditEvent(own, ada)).toMatchObject({
      performedBySelf: true,
      reason: "internal note",
      ipAddress: "203.0.113.77",
      userAgent: "StaffConsole/7.1",
      details: { count: 2 },
    });
  });

  it("every audit action the core records is decided: details listed, or knowingly none", () => {
    // No detail of these is the user's: the impersonating administrator's session, whether it was
    // restored; an unban and a removal say it all; an organization's deletion and an invitation
    // are recorded about no user (subjectId null), and so are an organization's domain and SSO
    // connection changes.
    const knowinglyNone: readonly string[] = [
      "impersonation.start",
      "impersonation.stop",
      "user.unban",
      "user.remove",
      "organization.delete",
      "organization.invite",
      "organization.domain-claim",
      "organization.domain-verify",
      "organization.domain-remove",
      "organization.domain-settings",
      "organization.sso-register",
      "organization.sso-update",
      "organization.sso-delete",
      "organization.sso-test",
      "organization.sso-setup-link",
      "organization.sso-setup-open",
      "organization.scim-token-create",
      "organization.scim-token-revoke",
      "organization.scim-group-create",
      "organization.scim-group-update",
      "organization.scim-group-delete",
    ];
    const undecided = AUDIT_ACTIONS.filter(
      (action) => !(action in DETAILS_SHOWN_TO_SUBJECT) && !knowinglyNone.includes(action),
    );
    expect(undecided).toEqual([]);
  });
});

describe("the export's audit events and accounts (exact text)", () => {
  it("writes an event the user did with all of it, and one done to them without actor facts", () => {
    const own = event({ actorId: ada, action: "user.set-role", details: { from: "user", to: "admin" } });
    expect(JSON.stringify(toExportedAuditEvent(own, ada))).toBe(
      `{"id":"${own._id}","action":"user.set-role","createdAt":"2026-11-28T12:00:00.000Z",` +
        `"performedBySelf":true,"reason":"internal note","ipAddress":"203.0.113.77",` +
        `"userAgent":"StaffConsole/7.1","details":{"from":"user","to":"admin"}}`,
    );
    const done = event({ details: { banExpires: at, note: "x" } });
    expect(JSON.stringify(toExportedAuditEvent(done, ada))).toBe(
      `{"id":"${done._id}","action":"user.ban","createdAt":"2026-11-28T12:00:00.000Z",` +
        `"performedBySelf":false,"reason":null,"ipAddress":null,"userAgent":null,` +
        `"details":{"banExpires":"2026-11-28T12:00:00.000Z"}}`,
    );
  });

  it.each([
    [
      "a credential account",
      { providerId: "credential", password: "scrypt$hash", scope: null },
      `"providerId":"credential","accountId":"acc-1","scope":null,"hasPassword":true,"hasProviderTokens":false`,
    ],
    [
      "a provider account with a refresh token only",
      { providerId: "github", refreshToken: "r", scope: "read:user" },
      `"providerId":"github","accountId":"acc-1","scope":"read:user","hasPassword":false,"hasProviderTokens":true`,
    ],
  ])("writes %s", (_name, fields, middle) => {
    const account: AccountDoc = {
      _id: new ObjectId(),
      accountId: "acc-1",
      userId: ada,
      password: null,
      accessToken: null,
      refreshToken: null,
      idToken: null,
      accessTokenExpiresAt: null,
      refreshTokenExpiresAt: null,
      createdAt: at,
      updatedAt: new Date("2026-11-28T13:00:00Z"),
      ...fields,
    };
    expect(JSON.stringify(toExportedAccount(account))).toBe(
      `{"id":"${account._id}",${middle},"createdAt":"2026-11-28T12:00:00.000Z",` +
        `"updatedAt":"2026-11-28T13:00:00.000Z"}`,
    );
  });
});

describe("the user row and sessions of the export", () => {
  const user: UserDoc = {
    _id: ada,
    email: "ada@example.com",
    emailVerified: true,
    name: "Ada",
    image: null,
    banned: true,
    banReason: "internal note",
    banExpires: null,
    createdAt: at,
    updatedAt: at,
  };

  it("leave out the ban's reason, keep that the user is banned", () => {
    const exported = toExportedUser(user, "user");
    expect(exported).toMatchObject({ banned: true, banExpires: null, role: "user" });
    expect(JSON.stringify(exported)).not.toContain("internal note");
  });

  it.each([
    [
      "banned for good, no role, language or second factor stored",
      {},
      `"image":null,"language":null,"role":"user","banned":true,"banExpires":null,"twoFactorEnabled":false`,
    ],
    [
      "roles as stored, a language, a second factor, a ban with an end",
      {
        image: "https://x/a.png",
        language: "FRA",
        role: "admin,support",
        banExpires: new Date("2026-12-01T00:00:00Z"),
        twoFactorEnabled: true,
      },
      `"image":"https://x/a.png","language":"FRA","role":"admin,support","banned":true,` +
        `"banExpires":"2026-12-01T00:00:00.000Z","twoFactorEnabled":true`,
    ],
    [
      "never banned: banned false, banExpires null",
      { banned: undefined, banReason: undefined, banExpires: undefined },
      `"image":null,"language":null,"role":"user","banned":false,"banExpires":null,"twoFactorEnabled":false`,
    ],
  ])("write the user row in the export's order (exact text): %s", (_name, fields, middle) => {
    expect(JSON.stringify(toExportedUser({ ...user, ...fields }, "user"))).toBe(
      `{"id":"${ada}","email":"ada@example.com","emailVerified":true,"name":"Ada",${middle},` +
        `"createdAt":"2026-11-28T12:00:00.000Z","updatedAt":"2026-11-28T12:00:00.000Z"}`,
    );
  });

  it("leave out an administrator's impersonation session and every session token", () => {
    const session = (overrides: Partial<SessionDoc>): SessionDoc => ({
      _id: new ObjectId(),
      userId: ada,
      token: "t".repeat(32),
      expiresAt: at,
      createdAt: at,
      updatedAt: at,
      ipAddress: "198.51.100.5",
      userAgent: "AdaPhone/1.0",
      activeOrganizationId: null,
      dontRemember: false,
      ...overrides,
    });
    const exported = toExportedSessions([
      session({}),
      session({ impersonatedBy: staff, ipAddress: "203.0.113.77" }),
    ]);
    expect(exported).toHaveLength(1);
    expect(JSON.stringify(exported)).not.toMatch(/203\.0\.113\.77|t{32}/);
  });

  it("write a session's fields in the export's own order, without its user, team or token", () => {
    const id = new ObjectId("65a000000000000000000001");
    const later = new Date("2026-12-28T12:00:00Z");
    const [exported] = toExportedSessions([
      {
        _id: id,
        userId: ada,
        token: "t".repeat(32),
        expiresAt: later,
        createdAt: at,
        updatedAt: at,
        ipAddress: null,
        userAgent: "AdaPhone/1.0",
        activeOrganizationId: "65a0000000000000000000aa",
        activeTeamId: "65a0000000000000000000bb",
        dontRemember: false,
      },
    ]);
    expect(JSON.stringify(exported)).toBe(
      '{"id":"65a000000000000000000001","createdAt":"2026-11-28T12:00:00.000Z",' +
        '"updatedAt":"2026-11-28T12:00:00.000Z","expiresAt":"2026-12-28T12:00:00.000Z",' +
        '"ipAddress":null,"userAgent":"AdaPhone/1.0","activeOrganizationId":"65a0000000000000000000aa"}',
    );
  });

  it("write an API key's name, start, state and permissions, never its hash, limits or metadata", () => {
    const key: ApiKeyDoc = {
      _id: new ObjectId("65a000000000000000000003"),
      userId: ada,
      name: "ci",
      prefix: "tsr_",
      start: "tsr_ab",
      keyHash: "h".repeat(43),
      enabled: true,
      expiresAt: null,
      remaining: 100,
      refillAmount: 100,
      refillInterval: 3_600_000,
      usageResetAt: at,
      rateLimitEnabled: true,
      rateLimitTimeWindow: 86_400_000,
      rateLimitMax: 10,
      permissions: { files: ["read"] },
      metadata: '{"team":"ops"}',
      createdFromSession: true,
      createdAt: at,
      updatedAt: at,
    };
    expect(JSON.stringify(toExportedApiKey(key))).toBe(
      '{"id":"65a000000000000000000003","name":"ci","prefix":"tsr_","start":"tsr_ab","enabled":true,' +
        '"expiresAt":null,"permissions":{"files":["read"]},"createdAt":"2026-11-28T12:00:00.000Z"}',
    );
  });
});
