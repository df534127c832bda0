import { ObjectId } from "mongodb";
import { beforeAll, describe, expect, it } from "vitest";
import { FORBIDDEN, signUpPerson, UNAUTHORIZED, USER_NOT_FOUND, useAdminCast } from "#test/admin.ts";
import type { TestBrowser } from "#test/browser.ts";

/**
 * Issue 14 gap 1: an admin reads another user's linked accounts through the server-only
 * adminListUserAccounts (the admin user page), never tokens or password hashes.
 */
const { t, admin, user, anon } = useAdminCast({ open: "once" });
const githubAccountId = new ObjectId();

beforeAll(async () => {
  // A provider account with tokens beside the credential one (as a social link stores it).
  await t.db.collection("accounts").insertOne({
    _id: githubAccountId,
    providerId: "github",
    accountId: "gh-4242",
    userId: new ObjectId(user.id),
    password: null,
    accessToken: "secret-access-token",
    refreshToken: "secret-refresh-token",
    idToken: "secret-id-token",
    scope: "read:user",
    createdAt: new Date(t.now().getTime() + 1000),
    updatedAt: new Date(t.now().getTime() + 1000),
  });
});

function headersOf(browser: TestBrowser): Headers {
  return new Headers({ cookie: browser.cookieHeader() });
}

describe("adminListUserAccounts (server only)", () => {
  it("answers the user's accounts, oldest first: provider, account id and date only", async () => {
    const { data } = await t.auth.api.adminListUserAccounts({
      body: { userId: user.id },
      headers: headersOf(admin.browser),
    });
    expect(data.accounts.map((account) => [account.providerId, account.accountId])).toEqual([
      ["credential", user.id],
      ["github", "gh-4242"],
    ]);
    expect(data.accounts[1]).toEqual({
      id: githubAccountId.toHexString(),
      providerId: "github",
      accountId: "gh-4242",
      createdAt: expect.any(Date),
    });
    const text = JSON.stringify(data);
    for (const secret of ["secret-access-token", "secret-refresh-token", "secret-id-token", "scrypt"])
      expect(text).not.toContain(secret);
    const credential = await t.db
      .collection("accounts")
      .findOne({ userId: new ObjectId(user.id), providerId: "credential" });
    expect(text).not.toContain(String(credential?.password));
  });

  it("answers the accounts' exact JSON text", async () => {
    const { data } = await t.auth.api.adminListUserAccounts({
      body: { userId: user.id },
      headers: headersOf(admin.browser),
    });
    const rows = await t.db
      .collection("accounts")
      .find({ userId: new ObjectId(user.id) })
      .sort({ createdAt: 1 })
      .toArray();
    expect(JSON.stringify(data)).toBe(
      `{"accounts":[${rows
        .map(
          (row) =>
            `{"id":"${row._id}","providerId":"${row.providerId}","accountId":"${row.accountId}",` +
            `"createdAt":"${row.createdAt.toISOString()}"}`,
        )
        .join(",")}]}`,
    );
    expect(rows.map((row) => row.providerId)).toEqual(["credential", "github"]);
  });

  it("does not exist over HTTP (404), whoever asks", async () => {
    const res = await admin.browser.post("/admin/list-user-accounts", { userId: user.id });
    expect(res.status).toBe(404);
  });

  it("refuses a signed-out caller (401) and a non-admin (403) with the catalogue messages", async () => {
    await expect(
      t.auth.api.adminListUserAccounts({ body: { userId: user.id }, headers: headersOf(anon) }),
    ).rejects.toMatchObject({ ...UNAUTHORIZED, status: 401 });
    await expect(
      t.auth.api.adminListUserAccounts({ body: { userId: admin.id }, headers: headersOf(user.browser) }),
    ).rejects.toMatchObject({ ...FORBIDDEN, status: 403 });
  });

  it("answers 404 User not found for an unknown or malformed id", async () => {
    for (const userId of ["000000000000000000000000", "not-an-id"])
      await expect(
        t.auth.api.adminListUserAccounts({ body: { userId }, headers: headersOf(admin.browser) }),
      ).rejects.toMatchObject({ ...USER_NOT_FOUND, status: 404 });
  });

  it("keeps the may-manage rule: a plain admin cannot read another admin's accounts", async () => {
    const other = await signUpPerson(t, "other-admin", "admin");
    await expect(
      t.auth.api.adminListUserAccounts({ body: { userId: other.id }, headers: headersOf(admin.browser) }),
    ).rejects.toMatchObject({ ...FORBIDDEN, status: 403 });
  });

  it("refuses an operator object as the user id (400) and reads nothing for it", async () => {
    await expect(
      t.auth.api.adminListUserAccounts({
        body: { userId: { $ne: null } as unknown as string },
        headers: headersOf(admin.browser),
      }),
    ).rejects.toMatchObject({ code: "VALIDATION_ERROR", message: "Invalid request", status: 400 });
  });
});
