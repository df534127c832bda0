import type { ObjectId } from "mongodb";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { signUpPerson } from "#test/admin.ts";
import type { TestBrowser } from "#test/browser.ts";
import { type OAuthServer, startOAuthServer } from "#test/oauth-server.ts";
import { createSocialAuth, newBrowser, runSocialFlow } from "#test/social.ts";
import type { TestAuth } from "#test/test-auth.ts";

/** docs/security.md: an admin's impersonation session never reaches the user's provider tokens. */
const WHILE_IMPERSONATING = {
  code: "NOT_ALLOWED_WHILE_IMPERSONATING",
  message: "You cannot perform this action while impersonating a user",
};

let server: OAuthServer;
let t: TestAuth;
let userBrowser: TestBrowser;
let userId: ObjectId;
let adminBrowser: TestBrowser;

beforeAll(async () => {
  server = await startOAuthServer();
});
afterAll(() => server.close());
afterEach(async () => {
  server.reset();
  await t.close();
});

/** A GitHub user with two linked accounts, and an admin impersonating them. */
async function impersonating(): Promise<void> {
  t = await createSocialAuth(server, ["github", "google"]);
  server.setIdentity("github", {
    id: "7001",
    email: "octo@example.com",
    emailVerified: true,
    name: "O",
    image: null,
  });
  userBrowser = newBrowser(t);
  const flow = await runSocialFlow(userBrowser, server, { provider: "github", callbackURL: "/home" });
  expect(flow.location).toBe("/home");
  const user = await t.db.collection("users").findOne({ email: "octo@example.com" });
  userId = user?._id as ObjectId;
  await t.db.collection("accounts").insertOne({
    providerId: "google",
    accountId: "imp-2",
    userId,
    password: null,
    createdAt: new Date(),
    updatedAt: new Date(),
  });
  const admin = await signUpPerson(t, "admin", "admin");
  adminBrowser = admin.browser;
  const res = await adminBrowser.post("/admin/impersonate-user", { userId: userId.toHexString() });
  expect(res.status).toBe(200);
}

async function accountState() {
  return {
    accounts: await t.db.collection("accounts").find({ userId }).sort({ _id: 1 }).toArray(),
    verifications: await t.db.collection("verifications").countDocuments(),
  };
}

describe("provider tokens and linking refuse an impersonation session", () => {
  it.each([
    ["/get-access-token", { providerId: "github" }],
    ["/refresh-token", { providerId: "github" }],
    ["/link-social", { provider: "google", callbackURL: "/home" }],
    ["/unlink-account", { providerId: "google" }],
  ])("%s answers 403 and changes nothing", async (path, body) => {
    await impersonating();
    const before = await accountState();
    const res = await adminBrowser.post(path, body);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(WHILE_IMPERSONATING);
    expect(await accountState()).toEqual(before);
    expect(server.requests.filter((request) => request.endpoint === "token")).toHaveLength(1);
  });

  it("the user's own session still gets the access token", async () => {
    await impersonating();
    const res = await userBrowser.post<{ accessToken: string }>("/get-access-token", {
      providerId: "github",
    });
    expect(res.status).toBe(200);
    expect(res.body.accessToken.length).toBeGreaterThan(0);
  });
});
