import { describe, expect, it } from "vitest";
import { signUp, type TestBrowser } from "#test/browser.ts";
import { createSocialAuth, newBrowser, runSocialFlow, useSocialTestbed } from "#test/social.ts";

/** the endpoint reference (docs/reference.md) account management: list, unlink, token endpoints, account-info; H13, H18. */
const { server, t } = useSocialTestbed(["github", "google", "facebook"]);

let nextId = 4000;
/** A user signed in through `provider` (a fresh identity each time); returns the browser and the token the provider issued. */
async function socialUser(
  provider = "github",
): Promise<{ browser: TestBrowser; email: string; accountId: string; accessToken: string }> {
  const accountId = String(nextId++);
  const email = `user${accountId}@example.com`;
  server.setIdentity(provider, { id: accountId, email, emailVerified: true, name: "Tok En", image: null });
  const browser = newBrowser(t);
  await runSocialFlow(browser, server, { provider, callbackURL: "/" });
  const userInfo = server.lastRequest(provider, "userinfo");
  const bearer = userInfo?.headers.authorization?.replace(/^Bearer /, "");
  return { browser, email, accountId, accessToken: bearer ?? userInfo?.query.access_token ?? "" };
}

function secondsLeft(expiresAt: unknown): number {
  if (!(expiresAt instanceof Date)) throw new Error("the account has no access-token expiry");
  return (expiresAt.getTime() - t.now().getTime()) / 1000;
}

const accountOf = (providerId: string, accountId: string) =>
  t.db.collection("accounts").findOne({ providerId, accountId });

describe("GET /list-accounts", () => {
  it("lists the caller's accounts with the endpoint reference (docs/reference.md) fields only, never tokens (H18)", async () => {
    const { browser, accountId } = await socialUser();
    const res = await browser.get<Array<Record<string, unknown>>>("/list-accounts");
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    expect(Object.keys(res.body[0] ?? {}).sort()).toEqual([
      "accountId",
      "createdAt",
      "id",
      "provider",
      "scopes",
      "updatedAt",
    ]);
    expect(res.body[0]).toMatchObject({ provider: "github", accountId, scopes: ["read:user", "user:email"] });
    expect(JSON.stringify(res.body)).not.toMatch(/at_|rt_|v1\./);
  });

  it("answers each account's fields in this exact text: provider renamed from providerId, scopes as a list", async () => {
    const { browser, accountId } = await socialUser();
    const res = await browser.get("/list-accounts");
    const row = await accountOf("github", accountId);
    if (!row) throw new Error("the account was not stored");
    const iso = (date: Date) => date.toISOString();
    expect(await res.response.text()).toBe(
      `[{"id":"${row._id.toHexString()}","provider":"github","createdAt":"${iso(row.createdAt)}",` +
        `"updatedAt":"${iso(row.updatedAt)}","accountId":"${accountId}","scopes":["read:user","user:email"]}]`,
    );
  });

  it("answers 401 without a session", async () => {
    const res = await newBrowser(t).get("/list-accounts");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: "UNAUTHORIZED", message: "unauthorized" });
  });
});

describe("POST /get-access-token", () => {
  it("hands the owner the provider's token; the database holds only ciphertext (H18)", async () => {
    const { browser, accountId, accessToken } = await socialUser();
    expect(accessToken).toMatch(/^at_/);
    const res = await browser.post<{ accessToken: string; scopes: string[]; accessTokenExpiresAt: string }>(
      "/get-access-token",
      { providerId: "github" },
    );
    expect(res.status).toBe(200);
    expect(res.body.accessToken).toBe(accessToken);
    expect(res.body.scopes).toEqual(["read:user", "user:email"]);
    const account = await accountOf("github", accountId);
    expect(account?.accessToken).not.toContain(accessToken);
    expect(account?.refreshToken).toMatch(/^v1\./);
    const raw = JSON.stringify(await t.db.collection("accounts").find({}).toArray());
    expect(raw).not.toContain(accessToken);
  });

  it("refreshes first when the token expires in under 5 s, not at 6 s", async () => {
    const { browser, accountId, accessToken } = await socialUser();
    const stored = await accountOf("github", accountId);
    const expiresIn = secondsLeft(stored?.accessTokenExpiresAt);
    t.advance(expiresIn - 6);
    try {
      const early = await browser.post<{ accessToken: string }>("/get-access-token", {
        providerId: "github",
      });
      expect(early.body.accessToken).toBe(accessToken);
      expect(server.lastRequest("github", "token")?.form.grant_type).toBe("authorization_code");
      t.advance(2);
      const late = await browser.post<{ accessToken: string; accessTokenExpiresAt: string }>(
        "/get-access-token",
        {
          providerId: "github",
        },
      );
      expect(late.status).toBe(200);
      expect(late.body.accessToken).toMatch(/^at_/);
      expect(late.body.accessToken).not.toBe(accessToken);
      expect(server.lastRequest("github", "token")?.form.grant_type).toBe("refresh_token");
      const after = await accountOf("github", accountId);
      expect(after?.accessToken).not.toBe(stored?.accessToken);
      expect(after?.refreshToken).not.toBe(stored?.refreshToken);
      expect(new Date(late.body.accessTokenExpiresAt).getTime()).toBeGreaterThan(
        t.now().getTime() + 3000_000,
      );
    } finally {
      t.advance(-(expiresIn - 4));
    }
  });

  it("of 5 concurrent requests near expiry exactly one refreshes; all get the new token", async () => {
    const { browser, accountId, accessToken } = await socialUser();
    const stored = await accountOf("github", accountId);
    const expiresIn = secondsLeft(stored?.accessTokenExpiresAt);
    t.advance(expiresIn - 2);
    try {
      const results = await Promise.all(
        Array.from({ length: 5 }, () =>
          browser.post<{ accessToken: string }>("/get-access-token", { providerId: "github" }),
        ),
      );
      const refreshes = server.requests.filter(
        (r) => r.providerId === "github" && r.endpoint === "token" && r.form.grant_type === "refresh_token",
      );
      expect(refreshes).toHaveLength(1);
      expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      const tokens = new Set(results.map((r) => r.body.accessToken));
      expect(tokens.size).toBe(1);
      expect(tokens.has(accessToken)).toBe(false);
      expect(await t.db.collection("verifications").countDocuments({ identifier: /^token-refresh:/ })).toBe(
        0,
      );
    } finally {
      t.advance(-(expiresIn - 2));
    }
  });

  it("an expired token that cannot be refreshed → Failed to get a valid access token", async () => {
    const { browser, accountId } = await socialUser();
    server.fail("github", "token", { status: 400, body: { error: "invalid_grant" } });
    const stored = await accountOf("github", accountId);
    const expiresIn = secondsLeft(stored?.accessTokenExpiresAt);
    t.advance(expiresIn + 1);
    try {
      const res = await browser.post("/get-access-token", { providerId: "github" });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: "FAILED_TO_GET_ACCESS_TOKEN",
        message: "Failed to get a valid access token",
      });
      expect((await accountOf("github", accountId))?.accessToken).toBe(stored?.accessToken);
    } finally {
      t.advance(-(expiresIn + 1));
    }
  });

  it("unknown provider, missing account, no session, and another user's id over HTTP", async () => {
    const { browser } = await socialUser();
    const unknown = await browser.post("/get-access-token", { providerId: "myspace" });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({
      code: "PROVIDER_NOT_SUPPORTED",
      message: "Provider myspace is not supported",
    });
    const missing = await browser.post("/get-access-token", { providerId: "google" });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ code: "ACCOUNT_NOT_FOUND", message: "Account not found" });
    const anonymous = await newBrowser(t).post("/get-access-token", { providerId: "github" });
    expect(anonymous.status).toBe(401);
    // Over HTTP a userId never selects someone else's tokens: the session's user is used.
    const victim = await socialUser("google");
    const victimUser = await t.db.collection("users").findOne({ email: victim.email });
    const idor = await browser.post("/get-access-token", {
      providerId: "google",
      userId: victimUser?._id.toHexString(),
    });
    expect(idor.body).toEqual({ code: "ACCOUNT_NOT_FOUND", message: "Account not found" });
  });

  it("server calls may name the user; without user or session → Either userId or session is required", async () => {
    const { email, accessToken } = await socialUser();
    const user = await t.db.collection("users").findOne({ email });
    const api = t.auth.api as Record<string, (input: unknown) => Promise<unknown>>;
    const result = (await api.getAccessToken?.({
      body: { providerId: "github", userId: user?._id.toHexString() },
    })) as {
      data: { accessToken: string };
    };
    expect(result.data.accessToken).toBe(accessToken);
    await expect(api.getAccessToken?.({ body: { providerId: "github" } })).rejects.toMatchObject({
      code: "USER_ID_OR_SESSION_REQUIRED",
      message: "Either userId or session is required",
    });
  });
});

describe("POST /refresh-token", () => {
  it("refreshes at the provider and stores the rotated tokens encrypted", async () => {
    const { browser, accountId, accessToken } = await socialUser();
    const before = await accountOf("github", accountId);
    const res = await browser.post<Record<string, unknown>>("/refresh-token", { providerId: "github" });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual([
      "accessToken",
      "accessTokenExpiresAt",
      "idToken",
      "refreshToken",
      "refreshTokenExpiresAt",
      "scopes",
    ]);
    expect(res.body.accessToken).not.toBe(accessToken);
    expect(res.body.refreshToken).toMatch(/^rt_/);
    const after = await accountOf("github", accountId);
    expect(after?.refreshToken).not.toBe(before?.refreshToken);
    expect(JSON.stringify(after)).not.toContain(String(res.body.refreshToken));
    expect(JSON.stringify(after)).not.toContain(String(res.body.accessToken));
  });

  it("a provider without refresh support → does not support token refreshing", async () => {
    const { browser, accountId } = await socialUser("facebook");
    const before = await accountOf("facebook", accountId);
    const res = await browser.post("/refresh-token", { providerId: "facebook" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: "TOKEN_REFRESH_NOT_SUPPORTED",
      message: "does not support token refreshing",
    });
    expect(await accountOf("facebook", accountId)).toEqual(before);
  });

  it("a refused refresh → Failed to refresh access token, tokens unchanged", async () => {
    const { browser, accountId } = await socialUser();
    const before = await accountOf("github", accountId);
    server.fail("github", "token", { status: 400, body: { error: "invalid_grant" } });
    const res = await browser.post("/refresh-token", { providerId: "github" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: "FAILED_TO_REFRESH_ACCESS_TOKEN",
      message: "Failed to refresh access token",
    });
    expect(await accountOf("github", accountId)).toEqual(before);
  });
});

describe("account update hooks see every token write", () => {
  it("a refresh runs the hooks; a refusing hook leaves the stored tokens as they were", async () => {
    const seen: Array<Record<string, unknown>> = [];
    let refuse = false;
    const hooked = await createSocialAuth(server, ["github"], {
      hooks: {
        account: {
          update: {
            before: (data) => {
              seen.push(data);
              return refuse ? false : undefined;
            },
          },
        },
      },
    });
    try {
      server.setIdentity("github", {
        id: "4800",
        email: "hooked@example.com",
        emailVerified: true,
        name: "H",
        image: null,
      });
      const browser = newBrowser(hooked);
      await runSocialFlow(browser, server, { provider: "github", callbackURL: "/" });
      expect((await browser.post("/refresh-token", { providerId: "github" })).status).toBe(200);
      expect(seen).toHaveLength(1);
      expect(String(seen[0]?.accessToken)).toMatch(/^v1\./);
      refuse = true;
      const before = await hooked.db.collection("accounts").findOne({ providerId: "github" });
      await runSocialFlow(newBrowser(hooked), server, { provider: "github", callbackURL: "/" });
      expect(seen).toHaveLength(2);
      expect(await hooked.db.collection("accounts").findOne({ providerId: "github" })).toEqual(before);
    } finally {
      await hooked.close();
    }
  });
});

describe("POST /account-info", () => {
  it("answers what the provider says about one of the caller's accounts", async () => {
    const { browser, accountId, email } = await socialUser();
    const res = await browser.post<{ user: Record<string, unknown> }>("/account-info", { accountId });
    expect(res.status).toBe(200);
    expect(res.body.user).toEqual({ id: accountId, name: "Tok En", email, image: null, emailVerified: true });
    const other = await socialUser();
    const foreign = await browser.post("/account-info", { accountId: other.accountId });
    expect(foreign.status).toBe(400);
    expect(foreign.body).toEqual({ code: "ACCOUNT_NOT_FOUND", message: "Account not found" });
  });
});

describe("POST /account-info when the provider fails", () => {
  it("answers 401 Failed to get user info", async () => {
    const { browser, accountId } = await socialUser();
    server.fail("github", "userinfo", { status: 500 });
    const res = await browser.post("/account-info", { accountId });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: "FAILED_TO_GET_USER_INFO", message: "Failed to get user info" });
  });
});

describe("POST /unlink-account", () => {
  it("never unlinks the last account (H13) and answers Account not found for a missing one", async () => {
    const { browser, accountId } = await socialUser();
    const last = await browser.post("/unlink-account", { providerId: "github" });
    expect(last.status).toBe(400);
    expect(last.body).toEqual({
      code: "FAILED_TO_UNLINK_LAST_ACCOUNT",
      message: "You can't unlink your last account",
    });
    expect(await accountOf("github", accountId)).not.toBeNull();
    const password = newBrowser(t);
    await signUp(password, { email: "two-accounts@example.com" });
    await t.db
      .collection("users")
      .updateOne({ email: "two-accounts@example.com" }, { $set: { emailVerified: true } });
    server.setIdentity("google", {
      id: "4900",
      email: "two-accounts@example.com",
      emailVerified: true,
      name: "T",
      image: null,
    });
    await runSocialFlow(password, server, { provider: "google", callbackURL: "/" }, "/link-social");
    const missing = await password.post("/unlink-account", { providerId: "github" });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ code: "ACCOUNT_NOT_FOUND", message: "Account not found" });
    const wrongId = await password.post("/unlink-account", { providerId: "google", accountId: "1" });
    expect(wrongId.body).toEqual({ code: "ACCOUNT_NOT_FOUND", message: "Account not found" });
    const ok = await password.post("/unlink-account", { providerId: "google", accountId: "4900" });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ status: true });
    expect(await accountOf("google", "4900")).toBeNull();
    const list = await password.get<Array<{ provider: string }>>("/list-accounts");
    expect(list.body.map((a) => a.provider)).toEqual(["credential"]);
  });

  it("two concurrent unlinks of a user's last two accounts leave at least one", async () => {
    for (let round = 0; round < 3; round++) {
      const browser = newBrowser(t);
      const email = `concurrent${round}@example.com`;
      await signUp(browser, { email });
      await t.db.collection("users").updateOne({ email }, { $set: { emailVerified: true } });
      server.setIdentity("google", { id: `49${round}1`, email, emailVerified: true, name: "C", image: null });
      await runSocialFlow(browser, server, { provider: "google", callbackURL: "/" }, "/link-social");
      const results = await Promise.all([
        browser.post("/unlink-account", { providerId: "google" }),
        browser.post("/unlink-account", { providerId: "credential" }),
      ]);
      const user = await t.db.collection("users").findOne({ email });
      const remaining = await t.db.collection("accounts").countDocuments({ userId: user?._id });
      const winners = results.filter((res) => res.status === 200).length;
      expect(winners).toBeLessThanOrEqual(1);
      expect(remaining).toBe(2 - winners);
      for (const res of results.filter((r) => r.status !== 200))
        expect(res.body).toEqual({
          code: "FAILED_TO_UNLINK_LAST_ACCOUNT",
          message: "You can't unlink your last account",
        });
    }
  });

  it("allowUnlinkingAll lets the last account go", async () => {
    const open = await createSocialAuth(server, ["github"], {
      account: { accountLinking: { allowUnlinkingAll: true } },
    });
    try {
      server.setIdentity("github", {
        id: "4990",
        email: "all@example.com",
        emailVerified: true,
        name: "A",
        image: null,
      });
      const browser = newBrowser(open);
      await runSocialFlow(browser, server, { provider: "github", callbackURL: "/" });
      const res = await browser.post("/unlink-account", { providerId: "github" });
      expect(res.body).toEqual({ status: true });
      expect(await open.db.collection("accounts").countDocuments()).toBe(0);
    } finally {
      await open.close();
    }
  });
});
