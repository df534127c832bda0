import { describe, expect, it } from "vitest";
import { signUp, TestBrowser } from "#test/browser.ts";
import { mailedLink as mailedLinkOf, requestResetToken as requestResetTokenOf } from "#test/mail.ts";
import { resetRows } from "#test/stored-rows.ts";
import { TEST_ORIGIN, useTestAuthPerTest } from "#test/test-auth.ts";
import { PASSWORD } from "./helpers.ts";

/** docs/security.mds asserted here are named in a comment beside each test; the map of where
 * every row of the set is asserted is at the top of one-time-tokens.test.ts. */
const ADA = "ada@example.com";

const { t, openAuth } = useTestAuthPerTest();

const mailedLink = (email: string, path: string) => mailedLinkOf(t, email, path);

const requestResetToken = (email = ADA, redirectTo?: string) => requestResetTokenOf(t, email, redirectTo);

describe("trusted callback URLs survive intact in mailed links and redirects", () => {
  // matrix G9
  it("/dashboard?tab=1#x as redirectTo is mailed encoded and the reset link keeps its query and fragment", async () => {
    await openAuth({ trustedOrigins: ["https://app.example.com"] });
    await signUp(new TestBrowser(t.auth), { email: ADA, password: PASSWORD });
    const token = await requestResetToken(ADA, "/dashboard?tab=1#x");
    const link = mailedLink(ADA, "/reset-password/");
    expect(link).toBe(
      `${TEST_ORIGIN}/api/auth/reset-password/${token}?callbackURL=%2Fdashboard%3Ftab%3D1%23x`,
    );
    const res = await new TestBrowser(t.auth).get(link.slice(`${TEST_ORIGIN}/api/auth`.length));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`/dashboard?tab=1&token=${token}#x`);
    expect(await resetRows(t.db)).toHaveLength(1);
  });

  // matrix G9
  it("https://app.example.com/cb as a verification callbackURL is mailed encoded and verifying redirects there", async () => {
    await openAuth({ trustedOrigins: ["https://app.example.com"] });
    const ada = new TestBrowser(t.auth);
    await signUp(ada, { email: ADA, password: PASSWORD });
    // Already percent-encoded, as a browser sends it (a raw space is refused: matrix G8's `/ /evil.com`).
    const callbackURL = "https://app.example.com/cb?next=%2Fa%20b&tab=1";
    const sent = await ada.post("/send-verification-email", { email: ADA, callbackURL });
    expect(sent.status).toBe(200);
    const link = new URL(mailedLink(ADA, "/verify-email"));
    expect(link.origin).toBe(TEST_ORIGIN);
    expect(link.searchParams.get("callbackURL")).toBe(callbackURL);
    expect(link.search).toContain(
      "callbackURL=https%3A%2F%2Fapp.example.com%2Fcb%3Fnext%3D%252Fa%2520b%26tab%3D1",
    );
    const res = await new TestBrowser(t.auth).get(`/verify-email${link.search}`);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(callbackURL);
    expect((await t.db.collection("users").findOne({ email: ADA }))?.emailVerified).toBe(true);
  });
});
