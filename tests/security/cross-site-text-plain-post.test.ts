import { describe, expect, it } from "vitest";
import { signUp, TestBrowser } from "#test/browser.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";
import { expectCatalogueError, PASSWORD, sendRaw, snapshotDatabase } from "./helpers.ts";

/** docs/security.mds asserted here are named in a comment beside each test; the map of where
 * every row of the set is asserted is at the top of one-time-tokens.test.ts. */
const ADA = "ada@example.com";
const NEW_PASSWORD = "new staple password";

const { t, openAuth } = useTestAuthPerTest();

async function signInStatus(email: string, password: string): Promise<number> {
  return (await new TestBrowser(t.auth).post("/sign-in/email", { email, password })).status;
}

describe("a cross-site text/plain POST changes nothing", () => {
  // Tessera reads the content type before the origin: the refusal is 400, not the row's 403/415 (noted in
  // the audit report); either way the simple-request CSRF changes nothing.
  // matrix F4
  it("a cross-site Content-Type: text/plain POST with a JSON body and a cookie is refused with 400 UNSUPPORTED_CONTENT_TYPE; session and password unchanged", async () => {
    await openAuth();
    const browser = new TestBrowser(t.auth);
    await signUp(browser, { email: ADA, password: PASSWORD });
    const cookie = browser.cookieHeader();
    const before = await snapshotDatabase(t.db);
    for (const [path, body] of [
      ["/sign-out", {}],
      [
        "/change-password",
        { currentPassword: PASSWORD, newPassword: NEW_PASSWORD, revokeOtherSessions: true },
      ],
    ] as const) {
      const res = await sendRaw(t.auth, "POST", path, {
        headers: {
          cookie,
          "content-type": "text/plain",
          origin: "https://evil.com",
          "sec-fetch-site": "cross-site",
        },
        body: JSON.stringify(body),
      });
      expectCatalogueError(res, 400, "UNSUPPORTED_CONTENT_TYPE", "Unsupported content type");
      expect(res.headers.getSetCookie()).toEqual([]);
    }
    expect(await snapshotDatabase(t.db)).toBe(before);
    expect(await t.db.collection("sessions").countDocuments()).toBe(1);
    expect(await signInStatus(ADA, PASSWORD)).toBe(200);
  });
});
