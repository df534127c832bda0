import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import type { TestBrowser } from "#test/browser.ts";
import { type Fixture, useFixtures } from "#test/organization.ts";
import {
  heldOrganizationListing,
  holdOrganizationListing,
  ListingCache,
  type OrganizationListings,
} from "../../../db/listing-cache.ts";
import { RawPage } from "../../../db/raw-page.ts";
import { EXPIRED_SHOWN_FOR_MS } from "../../cleanup.ts";

/**
 * get-full-organization's listing cache (db/listing-cache.ts, db/listing-version.ts): a listing is
 * served again only while the organization's listing version is the one it was read under, so every
 * write that changes the lists shows on the very next read; the caller's membership is read from
 * the database every time.
 */
const fixture = useFixtures();

interface Full {
  members: { userId: string; role: string; user: { name: string; email: string } }[];
  invitations: { email: string; status: string }[];
}

const FULL = "/organization/get-full-organization";

async function read(browser: TestBrowser): Promise<{ status: number; body: Full; text: string }> {
  const res = await browser.get<Full>(FULL);
  return { status: res.status, body: res.body, text: JSON.stringify(res.body) };
}

/** Reads twice (the second from the listing held), runs `change`, and returns the next read. */
async function afterChange(f: Fixture, change: () => Promise<unknown>): Promise<Full> {
  await read(f.O.browser);
  const held = await f.t.commands(() => read(f.O.browser));
  expect(held.slice(2)).toEqual(["find:organizations", "find:members"]); // held, not read
  await change();
  const next = await read(f.O.browser);
  expect(next.status).toBe(200);
  return next.body;
}

const roles = (full: Full) => full.members.map((m) => [m.userId, m.role]);

describe("get-full-organization's listing cache", () => {
  it("serves the same bytes from the listing held, reading the organization, the caller's member row and nothing of the lists", async () => {
    const f = await fixture();
    await f.O.browser.post("/organization/invite-member", {
      organizationId: f.A,
      email: "new@example.com",
      role: "member",
    });
    const first = await f.O.browser.get(FULL);
    const firstText = await first.response.text();
    const commands = await f.t.commands(async () => {
      const again = await f.O.browser.get(FULL);
      expect(await again.response.text()).toBe(firstText);
    });
    expect(commands).toEqual(["find:sessions", "find:users", "find:organizations", "find:members"]);
    // The server API gets the same objects either way.
    const headers = new Headers({ cookie: f.O.browser.cookieHeader() });
    const { data } = await f.t.auth.api.getFullOrganization({ headers, query: {} });
    expect(JSON.stringify(data)).toBe(firstText);
    expect((data as { members: { createdAt: unknown }[] }).members[0]?.createdAt).toBeInstanceOf(Date);
  });

  it("shows each kind of write on the next read", async () => {
    const f = await fixture();
    const { O, D, M, A, members, t } = f;
    let full = await afterChange(f, () =>
      O.browser.post("/organization/update-member-role", { memberId: members.M, role: "admin" }),
    );
    expect(roles(full)).toContainEqual([M.userId, "admin"]);

    full = await afterChange(f, () =>
      O.browser.post("/organization/remove-member", { memberIdOrEmail: members.D }),
    );
    expect(full.members.map((m) => m.userId)).not.toContain(D.userId);

    full = await afterChange(f, () =>
      t.auth.api.addMember({ body: { organizationId: A, userId: D.userId, role: "member" } }),
    );
    expect(roles(full)).toContainEqual([D.userId, "member"]);

    let invitationId = "";
    full = await afterChange(f, async () => {
      const res = await O.browser.post<{ id: string }>("/organization/invite-member", {
        organizationId: A,
        email: "invited@example.com",
        role: "member",
      });
      invitationId = res.body.id;
    });
    expect(full.invitations).toMatchObject([{ email: "invited@example.com", status: "pending" }]);

    full = await afterChange(f, () => O.browser.post("/organization/cancel-invitation", { invitationId }));
    expect(full.invitations).toMatchObject([{ email: "invited@example.com", status: "canceled" }]);

    full = await afterChange(f, () => M.browser.post("/update-user", { name: "Renamed Member" }));
    expect(full.members.find((m) => m.userId === M.userId)?.user.name).toBe("Renamed Member");

    full = await afterChange(f, () => M.browser.post("/organization/leave", { organizationId: A }));
    expect(full.members.map((m) => m.userId)).not.toContain(M.userId);
  });

  it("shows a member's new address, a deleted user and invitations removed by cleanup on the next read", async () => {
    const f = await fixture({ user: { deleteUser: { enabled: true } } });
    const { A, D, M, t } = f;
    // An admin's address change goes through the users store like any other (the users store bumps).
    await t.db.collection("users").updateOne({ _id: new ObjectId(f.O.userId) }, { $set: { role: "admin" } });
    let full = await afterChange(f, () =>
      f.O.browser.post("/admin/update-user", { userId: D.userId, data: { email: "moved@example.com" } }),
    );
    expect(full.members.find((m) => m.userId === D.userId)?.user.email).toBe("moved@example.com");

    full = await afterChange(f, () => M.browser.post("/delete-user", {}));
    expect(full.members.map((m) => m.userId)).not.toContain(M.userId);

    // A pending invitation past its expiry and the 30 days it stays shown: cleanup deletes it.
    await f.O.browser.post("/organization/invite-member", {
      organizationId: A,
      email: "old@example.com",
      role: "member",
    });
    await t.db
      .collection("invitations")
      .updateOne(
        { email: "old@example.com" },
        { $set: { expiresAt: new Date(Date.now() - EXPIRED_SHOWN_FOR_MS - 60_000) } },
      );
    full = await afterChange(f, async () => expect((await t.auth.cleanup()).invitations).toBe(1));
    expect(full.invitations).toEqual([]);
  });

  it("shows a removed team on the next read: its members' team is cleared in the listing held", async () => {
    const f = await fixture({ organization: { teams: { enabled: true, allowRemovingAllTeams: true } } });
    const { O, M, A, t } = f;
    const created = await O.browser.post<{ id: string }>("/organization/create-team", {
      name: "Night shift",
      organizationId: A,
    });
    expect(created.status).toBe(200);
    const teamId = created.body.id;
    // M's first team (member.teamId, as an invitation with a team leaves it), before any read is held.
    await t.db
      .collection("members")
      .updateOne({ _id: new ObjectId(f.members.M) }, { $set: { teamId: new ObjectId(teamId) } });
    type WithTeams = { members: { userId: string; teamId: string | null }[]; teams: { id: string }[] };
    const teamOfM = (full: WithTeams) => full.members.find((m) => m.userId === M.userId)?.teamId;
    expect(teamOfM((await read(O.browser)).body as unknown as WithTeams)).toBe(teamId);
    // Held: the teams are read every time, the members with their teams are not.
    const held = await t.commands(() => read(O.browser));
    expect(held.slice(2)).toEqual(["find:organizations", "find:members", "find:teams"]);
    const removed = await O.browser.post("/organization/remove-team", { teamId, organizationId: A });
    expect(removed.status).toBe(200);
    const next = await read(O.browser);
    expect(next.status).toBe(200);
    expect(teamOfM(next.body as unknown as WithTeams)).toBeNull();
    expect((next.body as unknown as WithTeams).teams.map((team) => team.id)).not.toContain(teamId);
    expect(next.text).not.toContain(teamId);
  });

  it("reads the caller's membership every time: a member row gone without a version bump (a crash) refuses at once", async () => {
    const f = await fixture();
    const { M, A, t } = f;
    expect((await read(M.browser)).status).toBe(200);
    expect((await read(M.browser)).status).toBe(200);
    // What a crash between the delete and its bump leaves: the row gone, the version unchanged.
    await t.db.collection("members").deleteOne({ _id: new ObjectId(f.members.M) });
    const refused = await M.browser.get(`${FULL}?organizationId=${A}`);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: "NOT_A_MEMBER_OF_ORGANIZATION" });
  });

  it("serves a listing for at most maxAgeSeconds: a write that did not bump shows once it is that old", async () => {
    const f = await fixture({ organization: { listingCache: { maxAgeSeconds: 0.3 } } });
    const { O, t } = f;
    await read(O.browser);
    await t.db
      .collection("members")
      .updateOne({ _id: new ObjectId(f.members.M) }, { $set: { role: "admin" } });
    expect(roles((await read(O.browser)).body)).toContainEqual([f.M.userId, "member"]);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(roles((await read(O.browser)).body)).toContainEqual([f.M.userId, "admin"]);
  });

  it("with listingCache false, every read reads the lists", async () => {
    const f = await fixture({ organization: { listingCache: false } });
    await read(f.O.browser);
    const commands = await f.t.commands(() => read(f.O.browser));
    expect(commands).toContain("find:users");
    expect(commands.filter((c) => c === "find:members")).toHaveLength(1);
  });

  it("holds one listing per organization within maxBytes, the least recently used out first, none past its age", () => {
    let now = 0;
    // Each listing below is 1,000 bytes (twice its 500-character text): three fit in 3,000.
    const cache: OrganizationListings = new ListingCache(3_000, 1_000, () => now);
    const [a, b, c, d] = [new ObjectId(), new ObjectId(), new ObjectId(), new ObjectId()];
    const empty = RawPage.empty<never>();
    const listing = (version: number, limit = 100) => ({
      limit,
      members: { members: empty, users: empty, pairs: [] },
      invitations: empty,
      text: `${version}`.padEnd(500, "."),
    });
    const hold = (id: ObjectId, version: number, limit = 100, text?: string) =>
      holdOrganizationListing(
        cache,
        id,
        version,
        text ? { ...listing(version, limit), text } : listing(version, limit),
      );
    const held = (id: ObjectId, limit: number, version: number) =>
      heldOrganizationListing(cache, id, limit, version);
    hold(a, 1);
    hold(b, 1);
    hold(c, 1);
    expect(cache.size).toEqual({ listings: 3, bytes: 3_000 });
    expect(held(a, 100, 1)).not.toBeNull(); // a is now the most recently used
    hold(d, 1); // b goes
    expect(held(b, 100, 1)).toBeNull();
    expect(held(a, 100, 1)).not.toBeNull();
    // Another members limit is not held; storing it replaces the organization's listing.
    expect(held(a, 50, 1)).toBeNull();
    hold(a, 2, 50);
    expect(held(a, 100, 2)).toBeNull();
    expect(held(a, 50, 2)?.text.startsWith("2")).toBe(true);
    expect(held(c, 100, 2)).toBeNull(); // another version: dropped
    expect(cache.size).toEqual({ listings: 2, bytes: 2_000 });
    // A listing larger than the whole budget is answered, not held.
    expect(hold(b, 1, 100, "x".repeat(2_000)).text).toHaveLength(2_000);
    expect(held(b, 100, 1)).toBeNull();
    // Past its age: not served, and dropped when another is stored.
    now = 1_001;
    expect(held(a, 50, 2)).toBeNull();
    hold(b, 1);
    expect(cache.size).toEqual({ listings: 1, bytes: 1_000 });
  });
});
