import { ObjectId } from "mongodb";
import { afterEach, describe, expect, it } from "vitest";
import { SESSION_COOKIE, TestBrowser } from "../support/browser.ts";
import { type Fixture, useFixtures } from "../support/organization.ts";
import type { TestAuth } from "../support/test-auth.ts";
import {
  CHALLENGE_COOKIE,
  challengedBrowser,
  createEnrolled,
  EMAIL,
  ERR,
  sessionsOf,
} from "../support/two-factor.ts";
import { expectCatalogueError, sendRaw, snapshotDatabase } from "./helpers.ts";

/**
 * Security-matrix audit, set B, continued (the coverage map of the whole set is at the top of
 * matrix-audit-b.test.ts): E24, I8, I11.
 */

describe("E24: one-time sign-in codes", () => {
  let t: TestAuth | null = null;
  afterEach(async () => {
    await t?.close();
    t = null;
  });

  it("E24: Tessera has no magic-link or email-OTP sign-in — those routes are 404 NOT_FOUND and write nothing", async () => {
    const enrolled = await createEnrolled();
    t = enrolled.t;
    const before = await snapshotDatabase(t.db);
    for (const [method, path] of [
      ["POST", "/sign-in/magic-link"],
      ["GET", "/magic-link/verify?token=abc"],
      ["POST", "/email-otp/send-verification-otp"],
      ["POST", "/sign-in/email-otp"],
    ] as const) {
      const res = await sendRaw(t.auth, method, path, {
        headers: { "content-type": "application/json", origin: "http://localhost:3000" },
        ...(method === "POST" ? { body: JSON.stringify({ email: EMAIL, otp: "123456" }) } : {}),
      });
      expectCatalogueError(res, 404, "NOT_FOUND", "Not found");
    }
    expect(await snapshotDatabase(t.db)).toBe(before);
  });

  it("E24 (nearest real: the two-factor email OTP): a mailed code replayed with its challenge cookie after it signed in is refused; no second session", async () => {
    const enrolled = await createEnrolled();
    t = enrolled.t;
    const browser = await challengedBrowser(t);
    const challenge = browser.cookies.get(CHALLENGE_COOKIE)!;
    await browser.post("/two-factor/send-otp", {});
    const code = /\b(\d{6})\b/.exec(t.outbox.latestTo(EMAIL)?.text ?? "")?.[1];
    expect(code).toMatch(/^\d{6}$/);
    const first = await browser.post("/two-factor/verify-otp", { code });
    expect(first.status).toBe(200);
    const sessions = await sessionsOf(t, enrolled.userId);
    const replay = new TestBrowser(t.auth);
    replay.cookies.set(CHALLENGE_COOKIE, challenge);
    const again = await replay.post("/two-factor/verify-otp", { code });
    expect({ status: again.status, body: again.body }).toEqual({ status: 401, body: ERR.INVALID_COOKIE });
    expect(replay.cookies.has(SESSION_COOKIE)).toBe(false);
    expect(await sessionsOf(t, enrolled.userId)).toBe(sessions);
  });
});

describe("I: admin D of organization A aimed at organization B", () => {
  const fixture = useFixtures();

  async function organizationB(f: Fixture) {
    const B = new ObjectId(f.B);
    return {
      organization: await f.t.db.collection("organizations").findOne({ _id: B }),
      members: await f.t.db.collection("members").find({ organizationId: B }).sort({ _id: 1 }).toArray(),
      invitations: await f.t.db.collection("invitations").find({ organizationId: B }).toArray(),
    };
  }

  it("I8: D's organization/update {organizationId: B, data: {name, slug, metadata}} is 403; B unchanged", async () => {
    const f = await fixture();
    const before = await organizationB(f);
    const res = await f.D.browser.post("/organization/update", {
      organizationId: f.B,
      data: { name: "pwned", slug: "pwned", metadata: { owner: "D" } },
    });
    expectCatalogueError(
      res,
      403,
      "NOT_A_MEMBER_OF_ORGANIZATION",
      "You are not a member of this organization",
    );
    expect(await organizationB(f)).toEqual(before);
    expect(before.organization).toMatchObject({ name: "org-b", slug: "org-b" });
    expect(await f.t.db.collection("organizations").countDocuments({ slug: "pwned" })).toBe(0);
  });

  it("I11: D's invite-member {organizationId: B} is 403; no invitation stored, nothing mailed", async () => {
    const f = await fixture();
    const before = await organizationB(f);
    const mails = f.t.outbox.messages().length;
    const res = await f.D.browser.post("/organization/invite-member", {
      organizationId: f.B,
      email: "spy@example.com",
      role: "member",
    });
    expectCatalogueError(
      res,
      403,
      "NOT_A_MEMBER_OF_ORGANIZATION",
      "You are not a member of this organization",
    );
    expect(await organizationB(f)).toEqual(before);
    expect(await f.t.db.collection("invitations").countDocuments({ email: "spy@example.com" })).toBe(0);
    expect(f.t.outbox.messages()).toHaveLength(mails);
  });
});
