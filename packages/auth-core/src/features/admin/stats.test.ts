import { ObjectId } from "mongodb";
import { beforeAll, describe, expect, it } from "vitest";
import { FORBIDDEN, UNAUTHORIZED, useAdminCast } from "#test/admin.ts";
import type { TestBrowser } from "#test/browser.ts";

/**
 * Issue 14 gap 3: the dashboard's totals come from the database over every user — not from
 * list-users, which stops at its pages. 1,500 users are stored directly (one insertMany), the
 * admin and the user of the cast sign up on top: 1,502.
 */
const { t, admin, user, anon } = useAdminCast({ open: "once", clock: { frozen: true } });
const DAY = 86_400_000;
const BULK = 1500;

beforeAll(async () => {
  const now = t.now().getTime();
  const today = Math.floor(now / DAY) * DAY;
  const users = Array.from({ length: BULK }, (_, i) => ({
    _id: new ObjectId(),
    email: `bulk${i}@example.org`,
    name: `Bulk ${i}`,
    image: null,
    // 0..29 days ago: 50 a day over the chart's 30 days; the first 100 are 40 days old instead.
    createdAt: new Date(i < 100 ? today - 40 * DAY + 1000 : today - (i % 30) * DAY + 60_000),
    updatedAt: new Date(now),
    emailVerified: i % 3 === 0,
    // every 10th a support admin too; every 100th no role stored (the default role).
    ...(i % 100 === 0 ? {} : { role: i % 10 === 0 ? "admin,support" : "user" }),
    // 20 bans in force (10 for good, 10 ending tomorrow) and 5 that expired yesterday.
    ...(i < 20 ? { banned: true, banExpires: i < 10 ? null : new Date(now + DAY) } : {}),
    ...(i >= 20 && i < 25 ? { banned: true, banExpires: new Date(now - DAY) } : {}),
  }));
  await t.db.collection("users").insertMany(users);
  // Sessions: the cast's two live ones, plus 7 live and 4 expired stored directly.
  const session = (offset: number) => ({
    _id: new ObjectId(),
    userId: users[0]!._id,
    token: new ObjectId().toHexString(),
    expiresAt: new Date(now + offset),
    createdAt: new Date(now),
    updatedAt: new Date(now),
    ipAddress: null,
    userAgent: null,
    activeOrganizationId: null,
  });
  await t.db
    .collection("sessions")
    .insertMany([
      ...Array.from({ length: 7 }, () => session(DAY)),
      ...Array.from({ length: 4 }, () => session(-1000)),
    ]);
}, 60_000);

function headersOf(browser: TestBrowser): Headers {
  return new Headers({ cookie: browser.cookieHeader() });
}

describe("getAdminStats (server only)", () => {
  it("counts every user, by role, banned and verified, past the 1,000 list-users would reach", async () => {
    const { data } = await t.auth.api.getAdminStats({ headers: headersOf(admin.browser) });
    expect(data.totalUsers).toBe(BULK + 2);
    expect(data.bannedUsers).toBe(20);
    expect(data.verifiedUsers).toBe(BULK / 3);
    // 135 "admin,support" (every 10th but the every-100th), 15 with no role + the cast's user: "user".
    expect(data.usersByRole).toEqual([
      { role: "user", count: BULK - 150 + 15 + 1 },
      { role: "admin", count: 135 + 1 },
      { role: "support", count: 135 },
    ]);
    expect(data.activeSessions).toBe(2 + 7);
  });

  it("answers sign-ups for each of the last 30 UTC days, oldest first, zero-filled", async () => {
    const { data } = await t.auth.api.getAdminStats({ headers: headersOf(admin.browser) });
    const now = t.now();
    expect(data.signUpsPerDay).toHaveLength(30);
    expect(data.signUpsPerDay.at(-1)?.day).toBe(now.toISOString().slice(0, 10));
    expect(data.signUpsPerDay[0]?.day).toBe(new Date(now.getTime() - 29 * DAY).toISOString().slice(0, 10));
    // 1,400 bulk users spread over 30 days (i % 30), minus the 100 moved 40 days back; the cast today.
    const expected = Array.from({ length: 30 }, (_, index) => {
      const daysAgo = 29 - index;
      let count = 0;
      for (let i = 100; i < BULK; i++) if (i % 30 === daysAgo) count++;
      return daysAgo === 0 ? count + 2 : count;
    });
    expect(data.signUpsPerDay.map((day) => day.count)).toEqual(expected);
    expect(data.signUpsPerDay.reduce((sum, day) => sum + day.count, 0)).toBe(BULK - 100 + 2);
  });

  it("does not exist over HTTP (404)", async () => {
    expect((await admin.browser.get("/admin/stats")).status).toBe(404);
  });

  it("refuses a signed-out caller (401) and a non-admin (403) with the catalogue messages", async () => {
    await expect(t.auth.api.getAdminStats({ headers: headersOf(anon) })).rejects.toMatchObject({
      ...UNAUTHORIZED,
      status: 401,
    });
    await expect(t.auth.api.getAdminStats({ headers: headersOf(user.browser) })).rejects.toMatchObject({
      ...FORBIDDEN,
      status: 403,
    });
  });

  it("costs six database commands besides reading the caller: counts, one $group, the sign-up dates", async () => {
    const commands = await t.commands(() => t.auth.api.getAdminStats({ headers: headersOf(admin.browser) }));
    // The caller's session and user (sensitive: read from the database), then the six; the dates'
    // cursor adds getMore batches, which grow with the sign-ups of 30 days, not with all users.
    const own = commands
      .filter((command) => !command.startsWith("getMore"))
      .slice(-6)
      .sort();
    expect(own).toEqual([
      "aggregate:sessions",
      "aggregate:users",
      "aggregate:users",
      "aggregate:users",
      "aggregate:users",
      "find:users",
    ]);
    expect(commands.filter((command) => !command.startsWith("getMore")).length).toBeLessThanOrEqual(9);
  });
});
