import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_COOKIE } from "#test/browser.ts";
import { type OAuthServer, startOAuthServer } from "#test/oauth-server.ts";
import { countDocs, newBrowser, providerConfig } from "#test/social.ts";
import { createTestAuth } from "#test/test-auth.ts";
import { PERSONAL_ACCOUNTS_TENANT } from "./providers/microsoft.ts";

/**
 * Id-token sign-in with Microsoft admits only the tenants `tenantId` names: "organizations" no
 * personal accounts, "consumers" only those, and a tenant domain — which a token's `tid` cannot be
 * matched against — no client-supplied id tokens at all.
 */
let server: OAuthServer;
const WORK_TENANT = "72f988bf-86f1-41af-91ab-2d7cd011db47";
const INVALID = { code: "INVALID_ID_TOKEN", message: "invalid token" };
let nextSub = 1;

beforeAll(async () => {
  server = await startOAuthServer();
});
afterAll(() => server.close());

function tokenFrom(tid: string, email: string): string {
  return server.signIdToken("microsoft", {
    sub: `ms-${nextSub++}`,
    tid,
    iss: `https://login.microsoftonline.com/${tid}/v2.0`,
    email,
    email_verified: true,
    name: "Entra User",
  });
}

async function withTenant(
  tenantId: string,
  run: (signIn: (token: string) => Promise<unknown>) => Promise<void>,
) {
  const t = await createTestAuth({
    socialProviders: {
      microsoft: providerConfig(server, "microsoft", {
        tenantId,
        endpoints: { jwks: server.endpoints("microsoft").jwks },
      }),
    },
  });
  try {
    await run(async (token) => {
      const before = await countDocs(t);
      const browser = newBrowser(t);
      const res = await browser.post("/sign-in/social", { provider: "microsoft", idToken: { token } });
      if (res.status !== 200) {
        expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);
        expect(await countDocs(t)).toEqual(before);
      } else {
        expect(await countDocs(t)).toEqual({
          users: before.users + 1,
          accounts: before.accounts + 1,
          sessions: before.sessions + 1,
        });
      }
      return { status: res.status, body: res.body };
    });
  } finally {
    await t.close();
  }
}

describe("Microsoft id-token sign-in and tenantId", () => {
  it("organizations refuses a personal account token and admits a work tenant one", async () => {
    await withTenant("organizations", async (signIn) => {
      expect(await signIn(tokenFrom(PERSONAL_ACCOUNTS_TENANT, "p@outlook.com"))).toEqual({
        status: 401,
        body: INVALID,
      });
      expect(await signIn(tokenFrom(WORK_TENANT, "w@contoso.com"))).toMatchObject({ status: 200 });
    });
  });

  it("consumers admits only a personal account token", async () => {
    await withTenant("consumers", async (signIn) => {
      expect(await signIn(tokenFrom(WORK_TENANT, "w@contoso.com"))).toEqual({ status: 401, body: INVALID });
      expect(await signIn(tokenFrom(PERSONAL_ACCOUNTS_TENANT, "p@outlook.com"))).toMatchObject({
        status: 200,
      });
    });
  });

  it("a tenant domain refuses client id tokens altogether, even its own tenant's", async () => {
    await withTenant("contoso.onmicrosoft.com", async (signIn) => {
      const refused = {
        status: 404,
        body: { code: "ID_TOKEN_NOT_SUPPORTED", message: "id_token not supported" },
      };
      expect(await signIn(tokenFrom(WORK_TENANT, "w@contoso.com"))).toEqual(refused);
      expect(await signIn(tokenFrom(PERSONAL_ACCOUNTS_TENANT, "p@outlook.com"))).toEqual(refused);
    });
  });

  it("a tenant id admits exactly that tenant", async () => {
    await withTenant(WORK_TENANT, async (signIn) => {
      expect(await signIn(tokenFrom(PERSONAL_ACCOUNTS_TENANT, "p@outlook.com"))).toEqual({
        status: 401,
        body: INVALID,
      });
      expect(await signIn(tokenFrom(WORK_TENANT, "w@contoso.com"))).toMatchObject({ status: 200 });
    });
  });
});
