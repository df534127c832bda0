import { describe, expect, it } from "vitest";
import { signUp, TestBrowser } from "#test/browser.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";

/**
 * Issue 27 item 11a (docs/decisions/0007-a-mailed-link-ends-the-strangers-delays.md "A mailed link ends the stranger's delays"): a stranger who
 * knows an address can make its owner wait on every new device (the `any` lane). A mailed one-time
 * link used successfully proves the mailbox and ends that: a reset (the new password clears every
 * lane, and the device that used the link becomes a known one) and an email verification (the `any`
 * lane starts again). The stranger is throttled again by the same rules afterwards.
 */
const EMAIL = "ada@example.com";
const PASSWORD = "correct horse battery";
const NEW_PASSWORD = "a new staple password";
const LOCKED = {
  code: "ACCOUNT_TEMPORARILY_LOCKED",
  message: "Account temporarily locked due to too many failed attempts. Try again later.",
};

const { t, openAuth } = useTestAuthPerTest();

let nextAddress = 0;
/** The stranger: a fresh browser at a fresh address each time, as a flood from many clients. */
function strangerSignIn(password = "wrong password!") {
  nextAddress++;
  const remoteAddress = `198.18.${Math.floor(nextAddress / 250)}.${(nextAddress % 250) + 1}`;
  return new TestBrowser(t.auth).post("/sign-in/email", { email: EMAIL, password }, { remoteAddress });
}

/** Six failures and one second: the stranger's next attempt, and any new device's, waits 2 s. */
async function strangerDelaysTheOwner(): Promise<void> {
  for (let n = 0; n < 5; n++) expect((await strangerSignIn()).status).toBe(401);
  t.advance(1);
  expect((await strangerSignIn()).status).toBe(401);
}

const anyLaneRows = () =>
  t.db.collection("verifications").countDocuments({ identifier: /^sign-in-attempt:[0-9a-f]{24}:any:/ });

function linkIn(pattern: RegExp): string {
  const link = t.outbox.latestTo(EMAIL)?.text.match(pattern)?.[0];
  expect(link).toBeDefined();
  return link!;
}

describe("a used reset link ends the stranger's delays for the owner", () => {
  it("locked out on a new device, the owner resets and signs in at once; the stranger is throttled again", async () => {
    await openAuth({}, { frozen: true });
    await signUp(new TestBrowser(t.auth), { email: EMAIL, password: PASSWORD });
    await strangerDelaysTheOwner();
    const owner = new TestBrowser(t.auth);
    const locked = await owner.post("/sign-in/email", { email: EMAIL, password: PASSWORD });
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual(LOCKED);

    await owner.post("/request-password-reset", { email: EMAIL });
    const token = new URL(linkIn(/https?:\/\/\S*\/reset-password\/\S+/)).pathname.split("/").pop();
    expect((await owner.post("/reset-password", { token, newPassword: NEW_PASSWORD })).status).toBe(200);
    expect(await anyLaneRows()).toBe(0);

    // Before the owner signs in, the stranger starts again: 5 free failures, then a delay of 1 s —
    // the `any` lane is throttled as the rules say …
    for (let n = 0; n < 5; n++) expect((await strangerSignIn()).status).toBe(401);
    const strangerAgain = await strangerSignIn(NEW_PASSWORD);
    expect(strangerAgain.status).toBe(429);
    expect(strangerAgain.headers.get("retry-after")).toBe("1");
    // … while the device that used the link is a known one: the owner signs in at once.
    const signedIn = await owner.post("/sign-in/email", { email: EMAIL, password: NEW_PASSWORD });
    expect(signedIn.status).toBe(200);
    // The owner's success cleared the account, so the stranger's count starts once more.
    expect(await anyLaneRows()).toBe(0);
  });
});

describe("a used verification link ends the stranger's delays for the owner", () => {
  it("the owner's new device waits, the owner verifies the address, then signs in at once", async () => {
    await openAuth({}, { frozen: true });
    await signUp(new TestBrowser(t.auth), { email: EMAIL, password: PASSWORD });
    await strangerDelaysTheOwner();
    expect(
      (await new TestBrowser(t.auth).post("/sign-in/email", { email: EMAIL, password: PASSWORD })).status,
    ).toBe(429);

    await new TestBrowser(t.auth).post("/send-verification-email", { email: EMAIL });
    const link = new URL(linkIn(/https?:\/\/\S*\/verify-email\?\S+/));
    const opened = await new TestBrowser(t.auth).get(
      `${link.pathname.replace("/api/auth", "")}${link.search}`,
    );
    expect(opened.status).toBe(302);
    expect((await t.db.collection("users").findOne({ email: EMAIL }))?.emailVerified).toBe(true);
    expect(await anyLaneRows()).toBe(0);

    const newDevice = new TestBrowser(t.auth);
    expect((await newDevice.post("/sign-in/email", { email: EMAIL, password: PASSWORD })).status).toBe(200);
    // The stranger's next failures count from zero, under the same rules: 5 free, then a delay.
    for (let n = 0; n < 5; n++) expect((await strangerSignIn()).status).toBe(401);
    expect((await strangerSignIn()).status).toBe(429);
  });

  it("an already verified address's link clears nothing (only proving the mailbox does)", async () => {
    await openAuth({}, { frozen: true });
    await signUp(new TestBrowser(t.auth), { email: EMAIL, password: PASSWORD });
    await new TestBrowser(t.auth).post("/send-verification-email", { email: EMAIL });
    const link = new URL(linkIn(/https?:\/\/\S*\/verify-email\?\S+/));
    const path = `${link.pathname.replace("/api/auth", "")}${link.search}`;
    expect((await new TestBrowser(t.auth).get(path)).status).toBe(302);
    await strangerDelaysTheOwner();
    expect(await anyLaneRows()).toBe(6);
    // The same link again: the address is verified already, the stranger's delay stands.
    expect((await new TestBrowser(t.auth).get(path)).status).toBe(302);
    expect(await anyLaneRows()).toBe(6);
    expect(
      (await new TestBrowser(t.auth).post("/sign-in/email", { email: EMAIL, password: PASSWORD })).status,
    ).toBe(429);
  });
});
