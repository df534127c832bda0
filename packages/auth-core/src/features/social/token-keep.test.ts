import { describe, expect, it } from "vitest";
import type { TestBrowser } from "#test/browser.ts";
import { newBrowser, runSocialFlow, useSocialTestbed } from "#test/social.ts";

/** docs/decisions/ provider tokens: a sign-in that brings none keeps the stored ones; a missing one is refreshed. */
const { server, t } = useSocialTestbed(["google"]);

interface TokenAnswer {
  accessToken: string;
  accessTokenExpiresAt: string | null;
}

/** A Google sign-in through the code flow: access and refresh token stored. */
async function codeFlowUser(
  sub: string,
  email: string,
): Promise<{ browser: TestBrowser; first: TokenAnswer }> {
  server.setIdentity("google", { id: sub, email, emailVerified: true, name: "G", image: null });
  const browser = newBrowser(t);
  const flow = await runSocialFlow(browser, server, { provider: "google", callbackURL: "/home" });
  expect(flow.location).toBe("/home");
  const first = await browser.post<TokenAnswer>("/get-access-token", { providerId: "google" });
  expect(first.status).toBe(200);
  return { browser, first: first.body };
}

const accountOf = (sub: string) =>
  t.db.collection("accounts").findOne({ providerId: "google", accountId: sub });

describe("provider tokens across sign-ins", () => {
  it("an id-token sign-in without an access token keeps the stored one (and its expiry)", async () => {
    const { first } = await codeFlowUser("8001", "keep@example.com");
    const stored = await accountOf("8001");
    const token = server.signIdToken("google", {
      sub: "8001",
      email: "keep@example.com",
      email_verified: true,
      nonce: "n-keep",
    });
    const browser = newBrowser(t);
    const res = await browser.post("/sign-in/social", {
      provider: "google",
      idToken: { token, nonce: "n-keep" },
    });
    expect(res.status).toBe(200);
    const after = await accountOf("8001");
    expect(after?.accessToken).toBe(stored?.accessToken);
    expect(after?.accessTokenExpiresAt).toEqual(stored?.accessTokenExpiresAt);
    expect(after?.refreshToken).toBe(stored?.refreshToken);
    expect(after?.idToken).not.toBe(stored?.idToken);
    const again = await browser.post<TokenAnswer>("/get-access-token", { providerId: "google" });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(expect.objectContaining({ accessToken: first.accessToken }));
    expect(server.requests.filter((r) => r.endpoint === "token")).toHaveLength(1);
  });

  it("get-access-token refreshes when the access token is missing and a refresh token exists", async () => {
    const { browser, first } = await codeFlowUser("8002", "missing@example.com");
    await t.db
      .collection("accounts")
      .updateOne({ accountId: "8002" }, { $set: { accessToken: null, accessTokenExpiresAt: null } });
    const res = await browser.post<TokenAnswer>("/get-access-token", { providerId: "google" });
    expect(res.status).toBe(200);
    expect(res.body.accessToken.length).toBeGreaterThan(0);
    expect(res.body.accessToken).not.toBe(first.accessToken);
    const grants = server.requests.filter((r) => r.endpoint === "token").map((r) => r.form.grant_type);
    expect(grants).toEqual(["authorization_code", "refresh_token"]);
    const after = await accountOf("8002");
    expect(after?.accessToken).not.toBeNull();
    expect(after?.accessToken).not.toContain(res.body.accessToken); // stored encrypted
  });

  it("without a refresh token a missing access token is still 400 FAILED_TO_GET_ACCESS_TOKEN", async () => {
    const { browser } = await codeFlowUser("8003", "none@example.com");
    await t.db
      .collection("accounts")
      .updateOne({ accountId: "8003" }, { $set: { accessToken: null, refreshToken: null } });
    const before = await accountOf("8003");
    const res = await browser.post("/get-access-token", { providerId: "google" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: "FAILED_TO_GET_ACCESS_TOKEN",
      message: "Failed to get a valid access token",
    });
    expect(await accountOf("8003")).toEqual(before);
    expect(server.requests.filter((r) => r.endpoint === "token")).toHaveLength(1);
  });
});
