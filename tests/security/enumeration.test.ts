import type { Auth, AuthOptions, Mailer } from "@tessera/auth-core";
import { createOperatorMail } from "@tessera/auth-core/operator";
import type { Db } from "mongodb";
import { describe, expect, it } from "vitest";
import { signUp, TestBrowser } from "#test/browser.ts";
import { type TestAuth, useFreshTestAuth } from "#test/test-auth.ts";
import { PASSWORD } from "./helpers.ts";

/**
 * Matrix C: the answer for an unknown address must not differ from a known one — neither in its body
 * nor in its timing. Timing is asserted through its cause: both requests send the same database
 * commands, in the same order. On FerretDB v1 a lookup by anything but _id scans its collection, so
 * one extra find costs time proportional to the collection (290 ms at 5 000 rows, measured) and
 * would tell the two cases apart; the same commands cost the same on every backend.
 */
let t: TestAuth | null = null;
const freshTestAuth = useFreshTestAuth();

interface Metered {
  auth: Auth;
  db: Db;
  errors: unknown[];
  /** The `command:collection` list the driver sent while `run` was in flight. */
  commands(run: () => Promise<unknown>): Promise<string[]>;
}

async function createMeteredAuth(overrides: Omit<Partial<AuthOptions>, "database"> = {}): Promise<Metered> {
  const errors: unknown[] = [];
  t = await freshTestAuth({
    logger: { info: () => {}, warn: () => {}, error: (message) => errors.push(message) },
    ...overrides,
  });
  return { auth: t.auth, db: t.db, errors, commands: t.commands };
}

describe("sign-in with an unknown email vs a wrong password", () => {
  it("answers the same 401 after the same database commands", async () => {
    const m = await createMeteredAuth();
    await signUp(new TestBrowser(m.auth), { email: "ada@example.com", password: PASSWORD });
    const answers: unknown[] = [];
    const signIn = (email: string) => async () => {
      const res = await new TestBrowser(m.auth).post("/sign-in/email", { email, password: "wrong password" });
      answers.push({ status: res.status, body: res.body });
    };
    const wrongPassword = await m.commands(signIn("ada@example.com"));
    const unknownEmail = await m.commands(signIn("nobody@example.com"));
    const expected = { code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" };
    expect(answers).toEqual([
      { status: 401, body: expected },
      { status: 401, body: expected },
    ]);
    // The per-account sign-in throttle reads the account's lane and claims a slot, for an unknown
    // address too (features/sign-in-throttle).
    expect(wrongPassword).toEqual([
      "find:users",
      "find:accounts",
      "find:verifications",
      "insert:verifications",
    ]);
    expect(unknownEmail).toEqual(wrongPassword);
    expect(await m.db.collection("sessions").countDocuments()).toBe(1);
  });
});

describe("request-password-reset for a known vs an unknown address", () => {
  it("answers the same body after the same database commands; the unknown one leaves no usable token", async () => {
    const m = await createMeteredAuth();
    await signUp(new TestBrowser(m.auth), { email: "ada@example.com", password: PASSWORD });
    const bodies: unknown[] = [];
    const request = (email: string) => async () => {
      const res = await new TestBrowser(m.auth).post("/request-password-reset", { email });
      bodies.push({ status: res.status, body: res.body });
    };
    const known = await m.commands(request("ada@example.com"));
    const unknown = await m.commands(request("nobody@example.com"));
    expect(bodies[1]).toEqual(bodies[0]);
    // The mail-limit slots (the client's, the address's) are claimed for an unknown address too
    // (docs/security.md, "Mail flooding"); so is a mail row, inert for it, stored before the token
    // (docs/architecture.md "Mail": a crash between leaves a dead link, never an unmailed token).
    expect(known).toEqual([
      "find:users",
      "insert:mailLimits",
      "insert:mailLimits",
      "insert:mails",
      "insert:verifications",
    ]);
    expect(unknown).toEqual(known);
    // The only live reset row is Ada's; whatever the unknown request wrote is expired and names nobody.
    const ada = await m.db.collection("users").findOne({ email: "ada@example.com" });
    const live = await m.db
      .collection("verifications")
      .find({ identifier: { $regex: "^reset-password:" }, expiresAt: { $gt: new Date() } })
      .toArray();
    expect(live.map((row) => row.value)).toEqual([ada?._id.toHexString()]);
    const inert = await m.db
      .collection("verifications")
      .find({ expiresAt: { $lte: new Date() } })
      .toArray();
    expect(inert.map((row) => row.value)).toEqual([""]);
    // The unknown request's mail row names nobody and was never sent; none shows as pending.
    await m.auth.mail.settle();
    const mails = await m.db
      .collection("mails")
      .find({}, { sort: { createdAt: 1 } })
      .toArray();
    expect(mails.map(({ to, state, userId, text }) => ({ to, state, userId, text }))).toEqual([
      { to: "ada@example.com", state: "sent", userId: ada?._id, text: null },
      { to: "", state: "dropped", userId: null, text: null },
    ]);
    expect((await createOperatorMail(m.auth).listQueue(10)).map((mail) => mail.to)).toEqual([]);
    // auth.cleanup() reclaims both inert rows.
    const cleaned = await m.auth.cleanup();
    expect(cleaned.verifications).toBe(1);
    expect(cleaned.mails).toBe(1);
    expect(await m.db.collection("mails").countDocuments({ to: "" })).toBe(0);
  });
});

/** A mailer that holds every mail until released, like an SMTP server that takes its time. */
function createSlowMailer(): Mailer & { delivered: string[]; release(): void } {
  const waiting: Array<() => void> = [];
  const delivered: string[] = [];
  return {
    delivered,
    send(message) {
      return new Promise<void>((resolve) => {
        waiting.push(() => {
          delivered.push(message.to);
          resolve();
        });
      });
    },
    release() {
      for (const deliver of waiting.splice(0)) deliver();
    },
  };
}

describe("sign-up with verification required, new vs existing address", () => {
  it("answers a new address without waiting for the mail (an existing address gets none)", async () => {
    const mailer = createSlowMailer();
    const m = await createMeteredAuth({ mailer, emailAndPassword: { requireEmailVerification: true } });
    const timeout = new Promise<"still waiting for the mailer">((resolve) =>
      setTimeout(() => resolve("still waiting for the mailer"), 2000),
    );
    const fresh = new TestBrowser(m.auth).post<{ token: null; user: { email: string } }>("/sign-up/email", {
      name: "Bob",
      email: "bob@example.com",
      password: PASSWORD,
    });
    expect(await Promise.race([fresh, timeout])).not.toBe("still waiting for the mailer");
    const res = await fresh;
    expect(res.status).toBe(200);
    expect(res.body.token).toBeNull();
    expect(res.body.user.email).toBe("bob@example.com");
    expect(mailer.delivered).toEqual([]);
    mailer.release();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(mailer.delivered).toEqual(["bob@example.com"]);
    expect(await m.db.collection("users").countDocuments({ email: "bob@example.com" })).toBe(1);
    expect(await m.db.collection("accounts").countDocuments()).toBe(1);
    expect(await m.db.collection("sessions").countDocuments()).toBe(0);
  });

  it("stores the verification mail's row before the user for a taken address too: the same commands up to the address claim", async () => {
    const m = await createMeteredAuth({ emailAndPassword: { requireEmailVerification: true } });
    const signUpAs = (email: string) => () =>
      new TestBrowser(m.auth).post("/sign-up/email", { name: "Ada", email, password: PASSWORD });
    const fresh = await m.commands(signUpAs("ada@example.com"));
    const taken = await m.commands(signUpAs("ada@example.com"));
    // The mail limit's slots for an address asked for twice take more tries (features/mail-limit):
    // compared without them. Past the claim a new address writes its user, a taken one reads the owner.
    const upToClaim = (commands: string[]) =>
      commands.slice(0, commands.indexOf("insert:emailClaims") + 1).filter((c) => c !== "insert:mailLimits");
    expect(upToClaim(fresh)).toEqual(["find:organizationDomains", "insert:mails", "insert:emailClaims"]);
    expect(upToClaim(taken)).toEqual(upToClaim(fresh));
    await m.auth.mail.settle();
    const mails = await m.db
      .collection("mails")
      .find({}, { sort: { _id: 1 } })
      .toArray();
    const ada = await m.db.collection("users").findOne({ email: "ada@example.com" });
    expect(mails.map(({ state, userId }) => ({ state, userId }))).toEqual([
      { state: "sent", userId: ada?._id },
      { state: "dropped", userId: mails[1]?.userId },
    ]);
    // The dropped mail names an id no user was stored under.
    expect(await m.db.collection("users").countDocuments({ _id: mails[1]?.userId })).toBe(0);
  });

  it("answers 200 when the mailer fails, like for an existing address, and logs the failure", async () => {
    const m = await createMeteredAuth({
      mailer: { send: () => Promise.reject(new Error("SMTP down")) },
      emailAndPassword: { requireEmailVerification: true },
    });
    const res = await new TestBrowser(m.auth).post<{ token: null; user: { email: string } }>(
      "/sign-up/email",
      { name: "Ada", email: "ada@example.com", password: PASSWORD },
    );
    expect(res.status).toBe(200);
    expect(res.body.token).toBeNull();
    expect(res.body.user.email).toBe("ada@example.com");
    const again = await new TestBrowser(m.auth).post<{ token: null; user: { email: string } }>(
      "/sign-up/email",
      { name: "Ada", email: "ada@example.com", password: PASSWORD },
    );
    expect(again.status).toBe(200);
    expect(Object.keys(again.body.user)).toEqual(Object.keys(res.body.user));
    await m.auth.mail.settle();
    // The mail waits in the outbox for the mail server (features/mail-outbox), its failure recorded.
    expect(m.errors).toEqual([]);
    const mails = await m.db
      .collection("mails")
      .find({ kind: "verify-email" }, { sort: { _id: 1 } })
      .toArray();
    // The taken address's mail was stored before its user, as a new one's is, and dropped unsent
    // when no user was created (docs/architecture.md "Mail").
    expect(mails).toMatchObject([
      { state: "queued", attempts: 1, lastError: "SMTP down" },
      { state: "dropped", attempts: 1, lastError: "link not stored", text: null, sentAt: null },
    ]);
    expect(await m.db.collection("users").countDocuments()).toBe(1);
    expect(await m.db.collection("accounts").countDocuments()).toBe(1);
    expect(await m.db.collection("sessions").countDocuments()).toBe(0);
  });
});
