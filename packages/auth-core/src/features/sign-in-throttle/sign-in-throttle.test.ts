import { ObjectId } from "mongodb";
import { beforeEach, describe, expect, it } from "vitest";
import { SESSION_COOKIE, signUp, TestBrowser } from "#test/browser.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";
import { verificationIdOf } from "../../db/ids.ts";
import { attemptLane } from "./rules.ts";

/**
 * Security-hardening issue, finding 2: 105 wrong passwords for one account, each from a different
 * address, were all checked (401) and the right one then worked. Guesses against one account are
 * now throttled across addresses (service.ts; docs/security.md "Guessing one account's password").
 */
const EMAIL = "ada@example.com";
const PASSWORD = "correct horse battery";
const LOCKED = {
  code: "ACCOUNT_TEMPORARILY_LOCKED",
  message: "Account temporarily locked due to too many failed attempts. Try again later.",
};
const WRONG = { code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" };
const HARD_LOCKED = {
  code: "SIGN_IN_LOCKED",
  message: "Too many failed sign-in attempts. Reset your password to sign in.",
};

const { t, openAuth } = useTestAuthPerTest();
let userId: string;
async function setUp(deleteUser = false): Promise<void> {
  // The per-address rate limiter is on, as in production: each guess comes from its own address.
  // A frozen clock: the delays are stepped with advance(), not waited for.
  await openAuth(
    { rateLimit: { enabled: true }, user: { deleteUser: { enabled: deleteUser } } },
    { frozen: true },
  );
  userId = (await signUp(new TestBrowser(t.auth), { email: EMAIL, password: PASSWORD })).body.user.id;
}
beforeEach(async () => {
  await setUp();
});

let nextAddress = 0;
/** A sign-in from a fresh browser at a fresh address (198.18.0.0/15, benchmarking range). */
function signInFromElsewhere(password: string, email = EMAIL) {
  nextAddress++;
  const remoteAddress = `198.18.${Math.floor(nextAddress / 250)}.${(nextAddress % 250) + 1}`;
  return new TestBrowser(t.auth).post("/sign-in/email", { email, password }, { remoteAddress });
}

function expectThrottled(res: { status: number; body: unknown; headers: Headers }, seconds: number) {
  expect(res.status).toBe(429);
  expect(res.body).toEqual(LOCKED);
  expect(res.headers.get("retry-after")).toBe(String(seconds));
  expect(res.headers.get("x-retry-after")).toBe(String(seconds));
}

/** Seeds `count` consecutive failures of the account's shared lane, as 100 real ones would leave. */
async function seedFailures(count: number): Promise<void> {
  const lane = attemptLane(userId, "any");
  const now = t.now();
  await t.db.collection("verifications").insertMany(
    Array.from({ length: count }, (_, i) => ({
      _id: verificationIdOf(`${lane}${i + 1}`),
      identifier: `${lane}${i + 1}`,
      value: "",
      expiresAt: new Date("9999-12-31T00:00:00.000Z"),
      createdAt: now,
      updatedAt: now,
    })),
  );
}

describe("per-account sign-in throttle", () => {
  it("105 wrong passwords from 105 addresses: after 5 the account waits, the right password too, then the owner signs in", async () => {
    const answers: number[] = [];
    for (let i = 0; i < 105; i++) answers.push((await signInFromElsewhere("wrong password!")).status);
    expect(answers.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(answers.slice(5)).toEqual(Array(100).fill(429));
    // The right password inside the delay is not even looked at.
    const early = await signInFromElsewhere(PASSWORD);
    expectThrottled(early, 1);
    expect(early.headers.getSetCookie()).toEqual([]);
    expect(await t.db.collection("sessions").countDocuments()).toBe(1); // the sign-up's alone
    t.advance(1);
    const owner = await signInFromElsewhere(PASSWORD);
    expect(owner.status).toBe(200);
    expect(owner.headers.getSetCookie().some((line) => line.startsWith(SESSION_COOKIE))).toBe(true);
  });

  it("a success clears the count: the next 5 failures are free again", async () => {
    for (let i = 0; i < 5; i++) expect((await signInFromElsewhere("wrong password!")).status).toBe(401);
    t.advance(1);
    expect((await signInFromElsewhere(PASSWORD)).status).toBe(200);
    const after: number[] = [];
    for (let i = 0; i < 6; i++) after.push((await signInFromElsewhere("wrong password!")).status);
    expect(after).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it("the delay doubles after each failure past the 5th, up to 5 minutes", async () => {
    for (let i = 0; i < 5; i++) await signInFromElsewhere("wrong password!");
    for (const delay of [1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300]) {
      expectThrottled(await signInFromElsewhere("wrong password!"), delay);
      t.advance(delay - 1);
      expect((await signInFromElsewhere(PASSWORD)).status).toBe(429);
      t.advance(1);
      const res = await signInFromElsewhere("wrong password!");
      expect(res.status).toBe(401);
      expect(res.body).toEqual(WRONG);
    }
  });

  it("parallel guesses get no more password checks than the free failures", async () => {
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => signInFromElsewhere("wrong password!")),
    );
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(7).fill(429)]);
  });

  it("an address nobody has answers exactly like a known one: same statuses, same database commands", async () => {
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 7; i++) known.push((await signInFromElsewhere("wrong password!")).status);
    for (let i = 0; i < 7; i++)
      unknown.push((await signInFromElsewhere("wrong password!", "bob@example.com")).status);
    expect(unknown).toEqual(known);
    t.advance(600);
    const knownCommands = await t.commands(() => signInFromElsewhere("wrong password!"));
    const unknownCommands = await t.commands(() => signInFromElsewhere("wrong password!", "bob@example.com"));
    expect(unknownCommands).toEqual(knownCommands);
    const lockedKnown = await t.commands(() => signInFromElsewhere("wrong password!"));
    const lockedUnknown = await t.commands(() => signInFromElsewhere("wrong password!", "bob@example.com"));
    expect(lockedUnknown).toEqual(lockedKnown);
  });

  it("after 100 consecutive failures sign-in is locked until the owner resets the password", async () => {
    await seedFailures(99);
    t.advance(300);
    expect((await signInFromElsewhere("wrong password!")).status).toBe(401); // the 100th
    t.advance(3600);
    for (const password of ["wrong password!", PASSWORD]) {
      const res = await signInFromElsewhere(password);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(HARD_LOCKED);
    }
    // The owner's way out: a reset by mail (the mailbox proves the owner) clears the failures.
    await new TestBrowser(t.auth).post("/request-password-reset", { email: EMAIL });
    const link = t.outbox.latestTo(EMAIL)?.text.match(/https?:\/\/\S*\/reset-password\/\S+/)?.[0] ?? "";
    const token = new URL(link).pathname.split("/").pop();
    const reset = await new TestBrowser(t.auth).post("/reset-password", {
      token,
      newPassword: "a new staple",
    });
    expect(reset.status).toBe(200);
    expect(await t.db.collection("verifications").countDocuments({ identifier: /^sign-in-attempt:/ })).toBe(
      0,
    );
    expect((await signInFromElsewhere("a new staple")).status).toBe(200);
  });

  it("a device that signed in as the user before keeps its own lane: others' guesses neither delay nor lock it", async () => {
    const owner = new TestBrowser(t.auth);
    expect((await owner.post("/sign-in/email", { email: EMAIL, password: PASSWORD })).status).toBe(200);
    expect(owner.cookies.has("tessera.known_device")).toBe(true);
    await seedFailures(100);
    expect((await signInFromElsewhere(PASSWORD)).status).toBe(403);
    const res = await owner.post("/sign-in/email", { email: EMAIL, password: PASSWORD });
    expect(res.status).toBe(200);
    // Proven on the device: the count restarts everywhere (NIST SP 800-63B §5.2.2).
    expect(await t.db.collection("verifications").countDocuments({ identifier: /^sign-in-attempt:/ })).toBe(
      0,
    );
  });

  it("a known-device cookie names its user: on another account it is an ordinary client", async () => {
    const owner = new TestBrowser(t.auth);
    await owner.post("/sign-in/email", { email: EMAIL, password: PASSWORD });
    const bob = (await signUp(new TestBrowser(t.auth), { email: "bob@example.com", password: PASSWORD })).body
      .user.id;
    const bobLane = attemptLane(bob, "any");
    for (let i = 0; i < 5; i++) await signInFromElsewhere("wrong password!", "bob@example.com");
    const res = await owner.post("/sign-in/email", { email: "bob@example.com", password: PASSWORD });
    expect(res.status).toBe(429);
    expect(
      await t.db.collection("verifications").countDocuments({ identifier: new RegExp(`^${bobLane}`) }),
    ).toBe(5);
  });

  it("deleting the user removes the account's failures", async () => {
    await setUp(true);
    for (let i = 0; i < 3; i++) await signInFromElsewhere("wrong password!");
    const user = new TestBrowser(t.auth);
    await user.post("/sign-in/email", { email: EMAIL, password: PASSWORD });
    await seedFailures(3);
    expect(await t.db.collection("verifications").countDocuments({ identifier: /^sign-in-attempt:/ })).toBe(
      3,
    );
    const res = await user.post("/delete-user", { password: PASSWORD });
    expect(res.status).toBe(200);
    expect(await t.db.collection("users").countDocuments({ _id: new ObjectId(userId) })).toBe(0);
    expect(await t.db.collection("verifications").countDocuments({ identifier: /^sign-in-attempt:/ })).toBe(
      0,
    );
  });
});
