import { createHmac, randomBytes } from "node:crypto";
import { ObjectId } from "mongodb";
import { afterEach, describe, expect, it } from "vitest";
import { CACHE_COOKIE, SESSION_COOKIE, signUp, TestBrowser } from "../support/browser.ts";
import { createFixture, createOrganization, signIn as signInVerified } from "../support/organization.ts";
import { createTestAuth, TEST_SECRET, type TestAuth } from "../support/test-auth.ts";
import {
  expectCatalogueError,
  expectNoSessionIssued,
  PASSWORD,
  postJsonText,
  sendRaw,
  snapshotDatabase,
} from "./helpers.ts";

/**
 * Security-matrix audit, rows A15 A22 A3 A7 B4 B6 B7 B9 C4 C5 D13 D6 D9 E1 E12 E17 (§3 of
 * /work/shared/research/security-matrix.md). Where each row is asserted:
 *
 * A3  → tests/security/injection.test.ts "refuses email operator $regex with 400"; here: the refusal
 *       runs no database command at all, whatever the regex would match (timing cannot depend on data)
 * A7  → here (the row's exact `{"name":{"$set":{"role":"admin"}}}`); packages/auth-core/src/features/
 *       account/update-user.test.ts "answers 400 for an operator object as name" covers `$ne`
 * A15 → here: Tessera hashes with scrypt, not bcrypt (no 72-byte limit); nearest behaviour asserted:
 *       a 100-byte password's first 72 bytes do not sign in
 * A22 → here; admin/users.test.ts "treats regex metacharacters in the search literally" covers `.` `*`
 * B4  → tests/security/emails.test.ts "refuses fullwidth letters …" and "refuses fullwidth at sign …"
 *       (alternative taken: 400 Invalid email)
 * B6  → tests/security/emails.test.ts "refuses quoted local part hiding an address …", "refuses comment
 *       …" (sign-up, sign-in); here: all three payloads on the mailing endpoints, mail sink checked
 * B7  → tests/security/emails.test.ts "refuses comma list …", "refuses semicolon list …" (sign-up,
 *       sign-in); here: on the mailing endpoints, mail sink checked
 * B9  → packages/auth-core/src/features/organization/invitations/invitations.test.ts "creates the member with the
 *       invitation's role and makes the organization active" (invited as NEW@example.com, accepted by
 *       new@example.com) and "refuses another address, an unverified email, … (matrix E13–E15)"
 * C4  → packages/auth-core/src/features/admin/ban.test.ts "with the right password: 403 BANNED_USER and
 *       no session; with a wrong one: 401 (the ban stays hidden)"
 * C5  → here
 * D6  → here; session/cookie-cache.test.ts "is refused when one character … is changed" and "is
 *       refused without a signature" cover tampering without a privilege claim
 * D9  → packages/auth-core/src/features/session/session.test.ts "deletes an expired session, answers
 *       null and clears the cookies" (clock advanced); here: expiresAt set in the past in the database
 * D13 → here: Tessera has no Bearer plugin; a Bearer header is ignored, the cookie alone decides
 * E1  → packages/auth-core/src/features/password/reset-password.test.ts "works once: the second use of
 *       a token is 400 invalid token and changes nothing"
 * E12 → packages/auth-core/src/features/deletion/delete-user.test.ts "refuses a stale session without
 *       password with 400 Session expired …" (alternative: 400 SESSION_EXPIRED); delete-user-callback
 *       .test.ts "refuses another user's token …", "refuses an expired token (86400 s + 1) …", "a used
 *       token cannot delete the account signed up again with the same email"
 * E17 → packages/auth-core/src/features/organization/invitations/invitations.test.ts "refuses members without
 *       invitation:create, roles above the inviter's, unknown roles, bad emails and existing members"
 *       (member with role member, admin with owner); here: a member with every role, nothing stored
 */

let t: TestAuth | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});
async function open(overrides: Parameters<typeof createTestAuth>[0] = {}): Promise<TestAuth> {
  t = await createTestAuth(overrides);
  return t;
}

async function signedUp(t: TestAuth, email: string, password = PASSWORD) {
  const browser = new TestBrowser(t.auth);
  const res = await signUp(browser, { email, password });
  expect(res.status).toBe(200);
  return { browser, id: res.body.user.id };
}

const userDoc = (t: TestAuth, id: string) => t.db.collection("users").findOne({ _id: new ObjectId(id) });

describe("matrix A: injection and input limits", () => {
  it("A3: an email given as $regex is refused with 400 VALIDATION_ERROR before any database command, whatever it would match", async () => {
    const t = await open();
    await signedUp(t, "alice@example.com");
    const before = await snapshotDatabase(t.db);
    for (const pattern of ["^a", "^zzz-matches-nobody"]) {
      const text = JSON.stringify({ email: { $regex: pattern }, password: "x" });
      let res: Awaited<ReturnType<typeof postJsonText>> | null = null;
      const commands = await t.commands(async () => {
        res = await postJsonText(t.auth, "/sign-in/email", text);
      });
      expectCatalogueError(res!, 400, "VALIDATION_ERROR", "Invalid request");
      expectNoSessionIssued(res!.headers);
      expect(commands).toEqual([]);
    }
    expect(await snapshotDatabase(t.db)).toBe(before);
  });

  it('A7: update-user with name {"$set":{"role":"admin"}} is refused with 400 VALIDATION_ERROR; the user document is unchanged', async () => {
    const t = await open();
    const ada = await signedUp(t, "ada@example.com");
    const before = await userDoc(t, ada.id);
    const res = await ada.browser.request("POST", "/update-user", {
      rawBody: '{"name":{"$set":{"role":"admin"}}}',
      headers: { "content-type": "application/json" },
    });
    expectCatalogueError(res, 400, "VALIDATION_ERROR", "Invalid request");
    const after = await userDoc(t, ada.id);
    expect(after).toEqual(before);
    expect(after?.role).not.toBe("admin");
  });

  it("A15: (scrypt, not bcrypt) a 100-byte password's first 72 bytes answer 401 INVALID_EMAIL_OR_PASSWORD; the whole password signs in", async () => {
    const t = await open();
    const long = `${"p".repeat(71)}X${"q".repeat(28)}`;
    expect(Buffer.byteLength(long)).toBe(100);
    const ada = await signedUp(t, "ada@example.com", long);
    const truncated = await new TestBrowser(t.auth).post("/sign-in/email", {
      email: "ada@example.com",
      password: long.slice(0, 72),
    });
    expectCatalogueError(truncated, 401, "INVALID_EMAIL_OR_PASSWORD", "Invalid email or password");
    expectNoSessionIssued(truncated.headers);
    const userId = new ObjectId(ada.id);
    expect(await t.db.collection("sessions").countDocuments({ userId })).toBe(1); // the sign-up's
    const whole = await new TestBrowser(t.auth).post("/sign-in/email", {
      email: "ada@example.com",
      password: long,
    });
    expect(whole.status).toBe(200);
    expect(await t.db.collection("sessions").countDocuments({ userId })).toBe(2);
  });

  it('A22: list-users with searchValue "(a+)+$" (contains) matches the text literally and answers in bounded time', async () => {
    const t = await open();
    const admin = await signedUp(t, "admin@example.com");
    await t.db.collection("users").updateOne({ _id: new ObjectId(admin.id) }, { $set: { role: "admin" } });
    // Catastrophic backtracking input for an unescaped (a+)+$, and the literal text itself.
    await signUp(new TestBrowser(t.auth), { email: "victim@example.com", name: `${"a".repeat(40)}!` });
    await signUp(new TestBrowser(t.auth), { email: "literal@example.com", name: "x(a+)+$y" });
    const before = await snapshotDatabase(t.db);
    const query = new URLSearchParams({
      searchValue: "(a+)+$",
      searchField: "name",
      searchOperator: "contains",
    });
    // No wall-clock assertion (flaky under load, and FerretDB's Go regex engine is linear anyway):
    // the literal-only match proves the pattern was escaped, which is what prevents a ReDoS.
    const res = await admin.browser.get<{ total: number; users: { email: string }[] }>(
      `/admin/list-users?${query}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(1);
    expect(res.body.users.map((user) => user.email)).toEqual(["literal@example.com"]);
    expect(await snapshotDatabase(t.db)).toBe(before);
  });
});

describe("matrix B: addresses that would misdeliver mail", () => {
  it.each([
    ["B6", "a quoted local part hiding an address", '"attacker@evil.com"@victim.com'],
    ["B6", "a quoted local part with a space", '"x@evil.com x"@victim.com'],
    ["B6", "a comment holding an address", "a@victim.com(evil@x.io)"],
    ["B7", "a comma-separated list", "a@victim.com,attacker@x.io"],
    ["B7", "a semicolon-separated list", "a@victim.com;attacker@x.io"],
  ])(
    "%s: %s is refused with 400 INVALID_EMAIL by request-password-reset and send-verification-email; no mail, no token",
    async (_row, _name, email) => {
      const t = await open();
      await signedUp(t, "a@victim.com");
      t.outbox.clear();
      const before = await snapshotDatabase(t.db);
      for (const path of ["/request-password-reset", "/forget-password", "/send-verification-email"]) {
        const res = await new TestBrowser(t.auth).post(path, { email });
        expectCatalogueError(res, 400, "INVALID_EMAIL", "Invalid email");
      }
      expect(t.outbox.messages()).toEqual([]);
      expect(await t.db.collection("verifications").countDocuments()).toBe(0);
      expect(await snapshotDatabase(t.db)).toBe(before);
    },
  );
});

describe("matrix C: no enumeration through invitations", () => {
  it("C5: invite-member answers a registered and an unregistered address identically (status, fields, values); both stored and mailed", async () => {
    const t = await open();
    const owner = await signInVerified(t, "owner");
    const organizationId = await createOrganization(owner, "org-c5");
    await signedUp(t, "registered@example.com");
    const invite = (email: string) =>
      owner.browser.post<Record<string, unknown>>("/organization/invite-member", {
        organizationId,
        email,
        role: "member",
      });
    const known = await invite("registered@example.com");
    const unknown = await invite("unregistered@example.com");
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(known.status);
    // Only the fields that name the invitation itself may differ.
    const comparable = (body: Record<string, unknown>) => {
      const { id: _id, email: _email, expiresAt: _expiresAt, createdAt: _createdAt, ...rest } = body;
      return rest;
    };
    expect(Object.keys(unknown.body).sort()).toEqual(Object.keys(known.body).sort());
    expect(comparable(unknown.body)).toEqual(comparable(known.body));
    expect(known.headers.getSetCookie()).toEqual(unknown.headers.getSetCookie());
    const rows = await t.db
      .collection("invitations")
      .find({}, { sort: { email: 1 } })
      .toArray();
    expect(rows.map((row) => [row.email, row.status])).toEqual([
      ["registered@example.com", "pending"],
      ["unregistered@example.com", "pending"],
    ]);
    expect(t.outbox.latestTo("registered@example.com")?.kind).toBe("invitation");
    expect(t.outbox.latestTo("unregistered@example.com")?.kind).toBe("invitation");
  });
});

describe("matrix D: sessions that must not authenticate", () => {
  it("D6: a forged session_data claiming role admin (empty, random, alg:none or empty-secret signature) is ignored; role stays user; list-users 403", async () => {
    const t = await open({ session: { cookieCache: { enabled: true } } });
    const ada = await signedUp(t, "ada@example.com");
    const genuine = decodeURIComponent(ada.browser.cookies.get(CACHE_COOKIE)!);
    const signedCookie = decodeURIComponent(ada.browser.cookies.get(SESSION_COOKIE)!);
    const text = Buffer.from(genuine.slice(0, genuine.lastIndexOf(".")), "base64url").toString("utf8");
    const newline = text.indexOf("\n");
    const meta = JSON.parse(text.slice(0, newline)) as unknown[];
    const api = JSON.parse(text.slice(newline + 1)) as { user: Record<string, unknown> };
    // The claim in both places a cache could carry it: the API user and the meta line's user fields.
    const forgedMeta = [meta[0], meta[1], meta[2] ?? {}, { ...((meta[3] as object) ?? {}), role: "admin" }];
    const body = Buffer.from(
      `${JSON.stringify(forgedMeta)}\n${JSON.stringify({ ...api, user: { ...api.user, role: "admin" } })}`,
    ).toString("base64url");
    const emptySecretMac = createHmac("sha256", "")
      .update(`cookie-cache:${signedCookie.length}:${signedCookie}:${body}`)
      .digest("base64url");
    const algNone = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString("base64url")}.${body}.`;
    const forgeries = [
      `${body}.`,
      `${body}.${randomBytes(32).toString("base64url")}`,
      algNone,
      `${body}.${emptySecretMac}`,
    ];
    const admin = await signedUp(t, "admin@example.com");
    await t.db.collection("users").updateOne({ _id: new ObjectId(admin.id) }, { $set: { role: "admin" } });
    expect((await admin.browser.get("/admin/list-users")).status).toBe(200); // control: the route works
    const adaBefore = await userDoc(t, ada.id);
    for (const forged of forgeries) {
      ada.browser.cookies.set(CACHE_COOKIE, encodeURIComponent(forged));
      const session = await ada.browser.get<{ user: Record<string, unknown> }>("/get-session");
      expect(session.status).toBe(200);
      expect(session.body.user.id).toBe(ada.id); // answered from the database
      expect(session.body.user.role).not.toBe("admin");
      ada.browser.cookies.set(CACHE_COOKIE, encodeURIComponent(forged));
      const list = await ada.browser.get("/admin/list-users");
      expectCatalogueError(list, 403, "RESOURCE_ACCESS_NOT_ALLOWED", "not allowed to access resource");
    }
    const after = await userDoc(t, ada.id);
    expect(after).toEqual(adaBefore);
    expect(after?.role ?? "user").toBe("user"); // no stored role means the default role, user
    // Positive control: the same body with the real secret's MAC is taken as signed, so the
    // forgeries above were refused for their signatures, not for a malformed body.
    const realMac = createHmac("sha256", TEST_SECRET)
      .update(`cookie-cache:${signedCookie.length}:${signedCookie}:${body}`)
      .digest("base64url");
    ada.browser.cookies.set(CACHE_COOKIE, encodeURIComponent(`${body}.${realMac}`));
    const signed = await ada.browser.get<{ user: Record<string, unknown> }>("/get-session");
    expect(signed.body.user.role).toBe("admin");
  });

  it("D9: a session whose expiresAt is set in the past in the database answers null, clears the cookies and is deleted, not refreshed", async () => {
    const t = await open();
    const ada = await signedUp(t, "ada@example.com");
    const signed = decodeURIComponent(ada.browser.cookies.get(SESSION_COOKIE)!);
    const token = signed.slice(0, signed.lastIndexOf("."));
    const past = new Date(t.now().getTime() - 1000);
    await t.db.collection("sessions").updateOne({ token }, { $set: { expiresAt: past } });
    const res = await ada.browser.get("/get-session");
    expect(res.status).toBe(200);
    expect(res.body).toBeNull();
    const cleared = res.headers.getSetCookie().find((line) => line.startsWith(`${SESSION_COOKIE}=`));
    expect(cleared).toMatch(/^tessera\.session_token=;.*Max-Age=0/i);
    expect(await t.db.collection("sessions").findOne({ token })).toBeNull();
    expect(await t.db.collection("sessions").countDocuments({ userId: new ObjectId(ada.id) })).toBe(0);
  });

  it("D13: (no Bearer support) a cookie of A with Authorization: Bearer of B is A's session only; the Bearer alone is no session", async () => {
    const t = await open();
    const a = await signedUp(t, "a@example.com");
    const b = await signedUp(t, "b@example.com");
    const bSigned = decodeURIComponent(b.browser.cookies.get(SESSION_COOKIE)!);
    const bToken = bSigned.slice(0, bSigned.lastIndexOf("."));
    const before = await snapshotDatabase(t.db);
    for (const bearer of [bToken, bSigned]) {
      const both = await a.browser.get<{ user: { id: string }; session: { userId: string } }>(
        "/get-session",
        {
          headers: { authorization: `Bearer ${bearer}` },
        },
      );
      expect(both.status).toBe(200);
      expect(both.body.user.id).toBe(a.id);
      expect(both.body.session.userId).toBe(a.id);
      const alone = await sendRaw(t.auth, "GET", "/get-session", {
        headers: { authorization: `Bearer ${bearer}` },
      });
      expect(alone.status).toBe(200);
      expect(alone.json ?? JSON.parse(alone.text)).toBeNull();
      expectNoSessionIssued(alone.headers);
      const update = await sendRaw(t.auth, "POST", "/update-user", {
        headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "Hijacked" }),
      });
      expectCatalogueError(update, 401, "UNAUTHORIZED", "unauthorized");
    }
    expect(await snapshotDatabase(t.db)).toBe(before);
    expect((await userDoc(t, b.id))?.name).not.toBe("Hijacked");
  });
});

describe("matrix E: invitation roles", () => {
  it("E17: a member inviting with any role gets 403 INVITATION_CREATE_NOT_ALLOWED, an admin inviting an owner 403 INVITATION_ROLE_NOT_ALLOWED; nothing stored or mailed", async () => {
    const f = await createFixture();
    t = f.t;
    const invite = (by: typeof f.M, role: string) =>
      by.browser.post("/organization/invite-member", { organizationId: f.A, email: "n@example.com", role });
    for (const role of ["member", "admin", "owner"])
      expectCatalogueError(
        await invite(f.M, role),
        403,
        "INVITATION_CREATE_NOT_ALLOWED",
        "not allowed to invite users to this organization",
      );
    expectCatalogueError(
      await invite(f.D, "owner"),
      403,
      "INVITATION_ROLE_NOT_ALLOWED",
      "not allowed to invite a user with this role",
    );
    expect(await f.t.db.collection("invitations").countDocuments()).toBe(0);
    expect(f.t.outbox.latestTo("n@example.com")).toBeNull();
    // Control: the admin may invite at their own level or below.
    expect((await invite(f.D, "admin")).status).toBe(200);
    expect(await f.t.db.collection("invitations").countDocuments({ role: "admin" })).toBe(1);
  });
});
