import { describe, expect, it } from "vitest";
import { SESSION_COOKIE, TestBrowser } from "#test/browser.ts";
import { deleteLinkFrom, GONE, INTACT, PASSWORD, signUpIn, userRows } from "#test/deletion.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";
import { deleteAccountIdentifier } from "./rules.ts";

const { t, openAuth } = useTestAuthPerTest();

async function setUp(enabled = true) {
  await openAuth({ user: { deleteUser: { enabled, sendDeleteAccountVerification: true } } });
  const ada = new TestBrowser(t.auth);
  const adaId = await signUpIn(t, ada, "ada@example.com");
  const bob = new TestBrowser(t.auth);
  const bobId = await signUpIn(t, bob, "bob@example.com");
  return { ada, adaId, bob, bobId };
}

/** Asks for the confirmation mail and returns its link. */
async function requestDeletionMail(browser: TestBrowser, email: string, body: object = {}) {
  const res = await browser.post("/delete-user", body);
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ success: true, message: "Verification email sent" });
  const mail = t.outbox.latestTo(email);
  expect(mail?.kind).toBe("delete-account");
  return deleteLinkFrom(mail?.text ?? "");
}

describe("deletion confirmed by email", () => {
  it("stores a 32-char token for 86400 s, mails the link, and the link deletes and redirects", async () => {
    const { ada, adaId, bobId } = await setUp();
    const link = await requestDeletionMail(ada, "ada@example.com", { callbackURL: "/goodbye" });
    expect(link.token).toMatch(/^[0-9a-z]{32}$/);
    expect(link.callbackURL).toBe("/goodbye");
    expect(t.outbox.latestTo("ada@example.com")?.text).toContain("The link expires in 24 hours.");
    const row = await t.db
      .collection("verifications")
      .findOne({ identifier: deleteAccountIdentifier(link.token) });
    // docs/security.md: keyed by the token's hash; the token itself is stored nowhere.
    expect(JSON.stringify(await t.db.collection("verifications").find({}).toArray())).not.toContain(
      link.token,
    );
    expect(row?.value).toBe(adaId.toHexString());
    const expiresAt = row?.expiresAt as Date | undefined;
    expect(expiresAt).toBeInstanceOf(Date);
    const expiresInMs = (expiresAt?.getTime() ?? 0) - t.now().getTime();
    expect(Math.abs(expiresInMs - 86400_000)).toBeLessThan(5000);
    expect(await userRows(t.db, adaId)).toEqual({ ...INTACT, tokens: 1 });

    const res = await ada.get(link.path);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/goodbye");
    expect(ada.cookies.has(SESSION_COOKIE)).toBe(false);
    expect(await userRows(t.db, adaId)).toEqual(GONE);
    expect(await userRows(t.db, bobId)).toEqual(INTACT);
  });

  it("still mails a confirmation when a correct password is given; a wrong one sends nothing", async () => {
    const { ada, adaId } = await setUp();
    const wrong = await ada.post("/delete-user", { password: "wrong password!" });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ code: "INVALID_PASSWORD", message: "Invalid password" });
    expect(t.outbox.latestTo("ada@example.com")).toBeNull();
    await requestDeletionMail(ada, "ada@example.com", { password: PASSWORD });
    expect(await userRows(t.db, adaId)).toEqual({ ...INTACT, tokens: 1 });
  });

  it("answers JSON User deleted when the link has no callbackURL", async () => {
    const { ada, adaId } = await setUp();
    const { token } = await requestDeletionMail(ada, "ada@example.com");
    const res = await ada.get(`/delete-user/callback?token=${token}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: "User deleted" });
    expect(await userRows(t.db, adaId)).toEqual(GONE);
  });

  it("accepts the mailed token in POST /delete-user too", async () => {
    const { ada, adaId, bobId } = await setUp();
    const { token } = await requestDeletionMail(ada, "ada@example.com");
    const res = await ada.post("/delete-user", { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: "User deleted" });
    expect(await userRows(t.db, adaId)).toEqual(GONE);
    expect(await userRows(t.db, bobId)).toEqual(INTACT);
  });

  it("removes the user's other pending tokens (delete-account and reset-password) with them", async () => {
    const { ada, adaId, bobId } = await setUp();
    await requestDeletionMail(ada, "ada@example.com");
    const { token } = await requestDeletionMail(ada, "ada@example.com");
    const expiresAt = new Date(t.now().getTime() + 3600_000);
    await t.db.collection("verifications").insertMany([
      { identifier: "reset-password:adaToken", value: adaId.toHexString(), expiresAt },
      { identifier: "reset-password:bobToken", value: bobId.toHexString(), expiresAt },
    ]);
    expect((await userRows(t.db, adaId)).tokens).toBe(3);
    expect((await ada.get(`/delete-user/callback?token=${token}`)).status).toBe(200);
    expect(await userRows(t.db, adaId)).toEqual(GONE);
    expect(await userRows(t.db, bobId)).toEqual({ ...INTACT, tokens: 1 });
  });
});

describe("refused confirmations delete nothing", () => {
  it("refuses another user's token (JSON 400, or redirect with the error) and keeps it for its owner", async () => {
    const { ada, adaId, bob, bobId } = await setUp();
    const link = await requestDeletionMail(ada, "ada@example.com", { callbackURL: "/goodbye" });
    const redirected = await bob.get(link.path);
    expect(redirected.status).toBe(302);
    expect(redirected.headers.get("location")).toBe("/goodbye?error=INVALID_TOKEN");
    const json = await bob.get(`/delete-user/callback?token=${link.token}`);
    expect(json.status).toBe(400);
    expect(json.body).toEqual({ code: "INVALID_TOKEN", message: "invalid token" });
    const viaPost = await bob.post("/delete-user", { token: link.token });
    expect(viaPost.status).toBe(400);
    expect(await userRows(t.db, bobId)).toEqual(INTACT);
    expect(await userRows(t.db, adaId)).toEqual({ ...INTACT, tokens: 1 });
    // Still good for Ada.
    expect((await ada.get(link.path)).status).toBe(302);
    expect(await userRows(t.db, adaId)).toEqual(GONE);
  });

  it("refuses an expired token (86400 s + 1) and deletes nothing", async () => {
    const { ada, adaId } = await setUp();
    const link = await requestDeletionMail(ada, "ada@example.com");
    t.advance(86400 + 1);
    const res = await ada.get(link.path);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/?error=INVALID_TOKEN");
    const viaPost = await ada.post("/delete-user", { token: link.token });
    expect(viaPost.status).toBe(400);
    expect(viaPost.body).toEqual({ code: "INVALID_TOKEN", message: "invalid token" });
    expect((await userRows(t.db, adaId)).users).toBe(1);
    expect((await userRows(t.db, adaId)).accounts).toBe(1);
  });

  it("a used token cannot delete the account signed up again with the same email", async () => {
    const { ada, adaId } = await setUp();
    const link = await requestDeletionMail(ada, "ada@example.com");
    expect((await ada.get(link.path)).status).toBe(302);
    expect(await userRows(t.db, adaId)).toEqual(GONE);
    const again = new TestBrowser(t.auth);
    const newId = await signUpIn(t, again, "ada@example.com");
    const reuse = await again.get(`/delete-user/callback?token=${link.token}`);
    expect(reuse.status).toBe(400);
    expect(reuse.body).toEqual({ code: "INVALID_TOKEN", message: "invalid token" });
    expect(await userRows(t.db, newId)).toEqual(INTACT);
  });

  it("of two concurrent clicks on one link exactly one deletes", async () => {
    const { ada, adaId } = await setUp();
    const { token } = await requestDeletionMail(ada, "ada@example.com");
    const path = `/delete-user/callback?token=${token}`;
    const [first, second] = await Promise.all([ada.get(path), ada.get(path)]);
    const statuses = [first.status, second.status].sort();
    // The loser finds the token used (400) or its session already gone (401).
    expect(statuses[0]).toBe(200);
    expect([400, 401]).toContain(statuses[1]);
    expect(await userRows(t.db, adaId)).toEqual(GONE);
  });

  it("a signed-out click is refused: redirect with error=UNAUTHORIZED, or 401 without callbackURL", async () => {
    const { ada, adaId } = await setUp();
    const link = await requestDeletionMail(ada, "ada@example.com");
    const stranger = new TestBrowser(t.auth);
    const redirected = await stranger.get(link.path);
    expect(redirected.status).toBe(302);
    expect(redirected.headers.get("location")).toBe("/?error=UNAUTHORIZED");
    const json = await stranger.get(`/delete-user/callback?token=${link.token}`);
    expect(json.status).toBe(401);
    expect(json.body).toEqual({ code: "UNAUTHORIZED", message: "unauthorized" });
    expect(await userRows(t.db, adaId)).toEqual({ ...INTACT, tokens: 1 });
  });

  it("refuses an untrusted callbackURL on the link with 403, keeping the token", async () => {
    const { ada, adaId } = await setUp();
    const { token } = await requestDeletionMail(ada, "ada@example.com");
    for (const callbackURL of ["https://evil.example/bye", "//evil.example", "/\\evil.example"]) {
      const res = await ada.get(
        `/delete-user/callback?token=${token}&callbackURL=${encodeURIComponent(callbackURL)}`,
      );
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ code: "INVALID_CALLBACK_URL", message: "Invalid callbackURL" });
      expect(res.headers.get("location")).toBeNull();
    }
    expect(await userRows(t.db, adaId)).toEqual({ ...INTACT, tokens: 1 });
  });

  it("answers 404 when deletion is disabled, even with a stored token", async () => {
    const { ada, adaId } = await setUp(false);
    const token = "0123456789abcdefghijklmnopqrstuv";
    await t.db.collection("verifications").insertOne({
      identifier: deleteAccountIdentifier(token),
      value: adaId.toHexString(),
      expiresAt: new Date(t.now().getTime() + 3600_000),
    });
    const res = await ada.get(`/delete-user/callback?token=${token}&callbackURL=%2F`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: "DELETE_USER_DISABLED", message: "Not found" });
    expect(await userRows(t.db, adaId)).toEqual({ ...INTACT, tokens: 1 });
  });
});

describe("mail hook", () => {
  it("hands the link and token to options.mail.sendDeleteAccountVerification instead of the mailer", async () => {
    const sent: { email: string; url: string; token: string }[] = [];
    await openAuth({
      user: { deleteUser: { enabled: true, sendDeleteAccountVerification: true } },
      mail: {
        sendDeleteAccountVerification: ({ user, url, token }) => {
          sent.push({ email: user.email, url, token });
        },
      },
    });
    const ada = new TestBrowser(t.auth);
    await signUpIn(t, ada, "ada@example.com");
    expect((await ada.post("/delete-user", {})).status).toBe(200);
    expect(t.outbox.latestTo("ada@example.com")).toBeNull();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.email).toBe("ada@example.com");
    expect(sent[0]?.url).toBe(
      `http://localhost:3000/api/auth/delete-user/callback?token=${sent[0]?.token}&callbackURL=%2F`,
    );
  });
});
