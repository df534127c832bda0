import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp } from "#test/browser.ts";
import { type OAuthServer, startOAuthServer } from "#test/oauth-server.ts";
import { genericConfig, newBrowser } from "#test/social.ts";
import { createTestAuth } from "#test/test-auth.ts";

/**
 * A generic provider cannot take the email-and-password account's providerId: accounts are keyed on
 * providerId, so one named "credential" would reach users' password accounts.
 */
let server: OAuthServer;

beforeAll(async () => {
  server = await startOAuthServer();
});
afterAll(() => server.close());

describe("reserved provider ids", () => {
  it('refuses a generic provider named "credential" at startup', async () => {
    await expect(createTestAuth({ genericOAuth: [genericConfig(server, "credential")] })).rejects.toThrow(
      /"credential" is reserved/,
    );
  });

  it("without such a provider, the token endpoints do not treat the password account as a provider's", async () => {
    const t = await createTestAuth({ genericOAuth: [genericConfig(server, "corp")] });
    try {
      const browser = newBrowser(t);
      expect((await signUp(browser, { email: "pw@example.com" })).status).toBe(200);
      const before = await t.db.collection("accounts").find().toArray();
      const res = await browser.post("/get-access-token", { providerId: "credential" });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: "PROVIDER_NOT_SUPPORTED",
        message: "Provider credential is not supported",
      });
      expect(await t.db.collection("accounts").find().toArray()).toEqual(before);
    } finally {
      await t.close();
    }
  });
});
