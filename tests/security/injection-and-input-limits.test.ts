import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { signUp, signUpUser, TestBrowser } from "#test/browser.ts";
import { type TestAuth, useFreshTestAuth } from "#test/test-auth.ts";
import {
  expectCatalogueError,
  expectNoSessionIssued,
  PASSWORD,
  postJsonText,
  snapshotDatabase,
} from "./helpers.ts";

/**
 * docs/security.mds A15 A22 A3 A7 B4 B6 B7 B9 C4 C5 D13 D6 D9 E1 E12 E17: where each row is asserted. The tests carry
 * their row id in a comment; their names say the behaviour.
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
 *       …" (sign-up, sign-in); misdelivered-mail-addresses.test.ts: all three payloads on the mailing endpoints, mail sink checked
 * B7  → tests/security/emails.test.ts "refuses comma list …", "refuses semicolon list …" (sign-up,
 *       sign-in); misdelivered-mail-addresses.test.ts: on the mailing endpoints, mail sink checked
 * B9  → packages/auth-core/src/features/organization/invitations/invitations.test.ts "creates the member with the
 *       invitation's role and makes the organization active" (invited as NEW@example.com, accepted by
 *       new@example.com) and "refuses another address, an unverified email, …"
 * C4  → packages/auth-core/src/features/admin/ban.test.ts "with the right password: 403 BANNED_USER and
 *       no session; with a wrong one: 401 (the ban stays hidden)"
 * C5  → invitation-enumeration.test.ts
 * D6  → forged-and-expired-sessions.test.ts; session/cookie-cache.test.ts "is refused when one character … is changed" and "is
 *       refused without a signature" cover tampering without a privilege claim
 * D9  → packages/auth-core/src/features/session/session.test.ts "deletes an expired session, answers
 *       null and clears the cookies" (clock advanced); forged-and-expired-sessions.test.ts: expiresAt set in the past in the database
 * D13 → forged-and-expired-sessions.test.ts: Tessera has no Bearer plugin; a Bearer header is ignored, the cookie alone decides
 * E1  → packages/auth-core/src/features/password/reset-password.test.ts "works once: the second use of
 *       a token is 400 invalid token and changes nothing"
 * E12 → packages/auth-core/src/features/deletion/delete-user.test.ts "refuses a stale session without
 *       password with 400 Session expired …" (alternative: 400 SESSION_EXPIRED); delete-user-callback
 *       .test.ts "refuses another user's token …", "refuses an expired token (86400 s + 1) …", "a used
 *       token cannot delete the account signed up again with the same email"
 * E17 → packages/auth-core/src/features/organization/invitations/invitations.test.ts "refuses members without
 *       invitation:create, roles above the inviter's, unknown roles, bad emails and existing members"
 *       (member with role member, admin with owner); invitation-roles.test.ts: a member with every role, nothing stored
 */

const open = useFreshTestAuth();

const signedUp = (t: TestAuth, email: string, password = PASSWORD) => signUpUser(t, { email, password });

const userDoc = (t: TestAuth, id: string) => t.db.collection("users").findOne({ _id: new ObjectId(id) });

describe("injection and input limits", () => {
  // matrix A3
  it("an email given as $regex is refused with 400 VALIDATION_ERROR before any database command, whatever it would match", async () => {
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

  // matrix A7
  it('update-user with name {"$set":{"role":"admin"}} is refused with 400 VALIDATION_ERROR; the user document is unchanged', async () => {
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

  // matrix A15
  it("(scrypt, not bcrypt) a 100-byte password's first 72 bytes answer 401 INVALID_EMAIL_OR_PASSWORD; the whole password signs in", async () => {
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

  // matrix A22
  it('list-users with searchValue "(a+)+$" (contains) matches the text literally and answers in bounded time', async () => {
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
