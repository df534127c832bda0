import { describe, expect, it } from "vitest";
import { signUp, TestBrowser } from "#test/browser.ts";
import { DAY } from "#test/session-cookies.ts";
import { useFreshTestAuth } from "#test/test-auth.ts";

/**
 * Review s9 finding 9: the sliding refresh (extendSession) runs the session update `after` hook only
 * when its write found the session — a session revoked between the read and the write was not
 * updated, and its after hook must not say it was.
 */
const freshTestAuth = useFreshTestAuth();

async function setUp(revokeInBeforeHook: boolean) {
  const after: { expiresAt: Date }[] = [];
  const auth = await freshTestAuth({
    hooks: {
      session: {
        update: {
          // Runs between the session read and the write: a concurrent sign-out lands here.
          before: async () => {
            if (revokeInBeforeHook) await auth.db.collection("sessions").deleteMany({});
            return undefined;
          },
          after: (doc) => void after.push({ expiresAt: doc.expiresAt as Date }),
        },
      },
    },
  });
  const browser = new TestBrowser(auth.auth);
  expect((await signUp(browser)).status).toBe(200);
  auth.advance(DAY + 60);
  return { auth, browser, after };
}

describe("session refresh and the session update after hook", () => {
  it("a refresh that wrote: the after hook once, with the stored new expiry", async () => {
    const { auth, browser, after } = await setUp(false);
    const res = await browser.get("/get-session");
    expect(res.status).toBe(200);
    const row = await auth.db.collection("sessions").findOne({});
    expect(after).toEqual([{ expiresAt: row?.expiresAt }]);
    expect(row?.expiresAt.getTime()).toBeGreaterThan(auth.now().getTime() + 6 * DAY * 1000);
  });

  it("a session revoked before the refresh wrote: no after hook, no session row", async () => {
    const { auth, browser, after } = await setUp(true);
    const res = await browser.get("/get-session");
    expect(after).toEqual([]);
    expect(await auth.db.collection("sessions").countDocuments()).toBe(0);
    // Not served on the session it just lost, and its cookies are cleared.
    expect(res.body).toBeNull();
    expect(browser.cookies.has("tessera.session_token")).toBe(false);
  });
});
