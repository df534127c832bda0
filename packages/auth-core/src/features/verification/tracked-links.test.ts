import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { signUp, TestBrowser } from "#test/browser.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";

/**
 * Review finding s9-4: mail trackers append parameters to the links in a mail (utm_*). The three GET
 * link endpoints ignore unknown query keys — the link behaves exactly as without them and the extra
 * keys are not passed on — while the known keys keep their strict types and checks.
 */
const ADA = "ada@example.com";
const PASSWORD = "correct horse battery";
const TRACKING = "utm_source=newsletter&utm_medium=email&utm_campaign=x%20y";
const VALIDATION_ERROR = { code: "VALIDATION_ERROR", message: "Invalid request" };

const { t, openAuth } = useTestAuthPerTest();

/** The first link in the latest mail to `email`, as a path under the API base, with `extra` appended. */
function mailedPath(email: string, extra = ""): string {
  const link = t.outbox.latestTo(email)?.text.match(/https?:\/\/\S+/)?.[0];
  if (!link) throw new Error(`no link mailed to ${email}`);
  const path = link.replace(/^https?:\/\/[^/]+\/api\/auth/, "");
  return extra === "" ? path : `${path}&${extra}`;
}

async function signedUpAda(): Promise<{ browser: TestBrowser; id: ObjectId }> {
  const browser = new TestBrowser(t.auth);
  const res = await signUp(browser, { email: ADA, password: PASSWORD });
  expect(res.status).toBe(200);
  return { browser, id: new ObjectId(res.body.user.id as string) };
}

async function adaDoc() {
  return t.db.collection("users").findOne({ email: ADA });
}

describe("GET /verify-email with tracking parameters", () => {
  it("redirects to the callback (without the extra parameters) and verifies the address", async () => {
    await openAuth();
    await signedUpAda();
    await new TestBrowser(t.auth).post("/send-verification-email", {
      email: ADA,
      callbackURL: "/welcome?tab=1",
    });
    const res = await new TestBrowser(t.auth).get(mailedPath(ADA, TRACKING));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/welcome?tab=1");
    expect((await adaDoc())?.emailVerified).toBe(true);
  });

  it("keeps the known keys strict: an untrusted callbackURL is 403, a missing token 400, nothing verified", async () => {
    await openAuth();
    await signedUpAda();
    await new TestBrowser(t.auth).post("/send-verification-email", { email: ADA });
    const token = new URL(`http://x${mailedPath(ADA)}`).searchParams.get("token") ?? "";
    const untrusted = await new TestBrowser(t.auth).get(
      `/verify-email?token=${token}&callbackURL=${encodeURIComponent("https://evil.example/")}&${TRACKING}`,
    );
    expect(untrusted.status).toBe(403);
    expect(untrusted.body).toEqual({ code: "INVALID_CALLBACK_URL", message: "Invalid callbackURL" });
    const missing = await new TestBrowser(t.auth).get(`/verify-email?callbackURL=%2F&${TRACKING}`);
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject(VALIDATION_ERROR);
    expect((await adaDoc())?.emailVerified).toBe(false);
  });
});

describe("GET /reset-password/{token} with tracking parameters", () => {
  it("forwards the token to the callback (without the extra parameters) and leaves the token unspent", async () => {
    await openAuth();
    await signedUpAda();
    await new TestBrowser(t.auth).post("/request-password-reset", { email: ADA, redirectTo: "/reset" });
    const res = await new TestBrowser(t.auth).get(mailedPath(ADA, TRACKING));
    expect(res.status).toBe(302);
    const location = res.headers.get("location") ?? "";
    expect(location).toMatch(/^\/reset\?token=[A-Za-z0-9]{24}$/);
    const token = new URL(location, "http://app").searchParams.get("token");
    const rows = t.db.collection("verifications").countDocuments({ identifier: /^reset-password:/ });
    expect(await rows).toBe(1);
    const reset = await new TestBrowser(t.auth).post("/reset-password", {
      newPassword: "new staple password",
      token,
    });
    expect(reset.status).toBe(200);
  });
});

describe("GET /delete-user/callback with tracking parameters", () => {
  it("deletes the user and redirects to the callback (without the extra parameters)", async () => {
    await openAuth({
      user: { deleteUser: { enabled: true, sendDeleteAccountVerification: true } },
    });
    const { browser, id } = await signedUpAda();
    const asked = await browser.post("/delete-user", { callbackURL: "/goodbye" });
    expect(asked.body).toEqual({ success: true, message: "Verification email sent" });
    const res = await browser.get(mailedPath(ADA, TRACKING));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/goodbye");
    expect(await t.db.collection("users").countDocuments({ _id: id })).toBe(0);
    expect(await t.db.collection("sessions").countDocuments({ userId: id })).toBe(0);
  });
});
