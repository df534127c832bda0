import { ObjectId } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrganization, type SignedIn, signIn } from "#test/organization.ts";
import { createTestAuth, type TestAuth } from "#test/test-auth.ts";

/**
 * Scale as a test of cost, not time (issue 3): on an organization of 1,000 members get-full-organization
 * and list-members send the same database commands as on one of 3, and never load more than a page.
 * docs/decisions/: the membership limit (raised here to 2,000) limits membership, not pages.
 */
let t: TestAuth;
let owner: SignedIn;
let small: string;
let large: string;

async function addBulkMembers(organizationId: string, count: number, from: number): Promise<void> {
  const now = Date.now();
  const users = Array.from({ length: count }, (_, i) => ({
    _id: new ObjectId(),
    email: `bulk${from + i}@example.com`,
    emailVerified: true,
    name: `Bulk ${from + i}`,
    image: null,
    createdAt: new Date(now),
    updatedAt: new Date(now),
  }));
  await t.db.collection("users").insertMany(users);
  await t.db.collection("members").insertMany(
    users.map((user, i) => ({
      _id: new ObjectId(),
      organizationId: new ObjectId(organizationId),
      userId: user._id,
      role: "member",
      createdAt: new Date(now + i + 1),
      teamId: null,
      seat: i + 1,
    })),
  );
}

beforeAll(async () => {
  t = await createTestAuth({ organization: { membershipLimit: 2000 } });
  owner = await signIn(t, "owner");
  small = await createOrganization(owner, "small");
  large = await createOrganization(owner, "large");
  await addBulkMembers(small, 2, 0);
  await addBulkMembers(large, 999, 10);
}, 120_000);
afterAll(async () => {
  await t.close();
});

describe("cost does not grow with the organization", () => {
  it.each([
    ["get-full-organization", (id: string) => `/organization/get-full-organization?organizationId=${id}`],
    ["list-members", (id: string) => `/organization/list-members?organizationId=${id}`],
  ])("%s: the same commands for 3 and 1,000 members", async (_label, path) => {
    // Sorted: get-full-organization's reads run concurrently, so their order on the wire may vary.
    const onSmall = (await t.commands(() => owner.browser.get(path(small)))).sort();
    const onLarge = (await t.commands(() => owner.browser.get(path(large)))).sort();
    expect(onLarge).toEqual(onSmall);
  });

  it("list-members answers one page of at most 100 with the total, and pages further", async () => {
    const first = await owner.browser.get<{ members: { userId: string }[]; total: number }>(
      `/organization/list-members?organizationId=${large}`,
    );
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(1000);
    expect(first.body.members).toHaveLength(100);
    const last = await owner.browser.get<{ members: { user: { email: string } }[]; total: number }>(
      `/organization/list-members?organizationId=${large}&limit=50&offset=980`,
    );
    expect(last.body.members.map((m) => m.user.email)).toEqual(
      Array.from({ length: 20 }, (_, i) => `bulk${989 + i}@example.com`),
    );
  });

  it("get-full-organization carries the first page of members only", async () => {
    const res = await owner.browser.get<{ members: unknown[] }>(
      `/organization/get-full-organization?organizationId=${large}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.members).toHaveLength(100);
  });

  it("a new member still joins an organization of 1,000 (seat claims past the first thousand)", async () => {
    const late = await signIn(t, "late");
    const { data } = await t.auth.api.addMember({
      body: { organizationId: large, userId: late.userId, role: "member" },
    });
    expect(data).toMatchObject({ userId: late.userId });
    expect(await t.db.collection("members").countDocuments({ organizationId: new ObjectId(large) })).toBe(
      1001,
    );
  });

  it("get-full-organization: a member beyond the first page is let in, a non-member is refused", async () => {
    // The page stands in for the membership check only when it lists the caller or the whole
    // organization; a member past the first 100 is found by the check itself.
    const beyond = await signIn(t, "beyond-page");
    await t.auth.api.addMember({ body: { organizationId: large, userId: beyond.userId, role: "member" } });
    const path = `/organization/get-full-organization?organizationId=${large}`;
    const member = await beyond.browser.get<{ members: { userId: string }[] }>(path);
    expect(member.status).toBe(200);
    expect(member.body.members).toHaveLength(100);
    expect(member.body.members.some((listed) => listed.userId === beyond.userId)).toBe(false);
    const outsider = await signIn(t, "outsider");
    for (const organizationId of [large, small]) {
      const refused = await outsider.browser.get(
        `/organization/get-full-organization?organizationId=${organizationId}`,
      );
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({
        code: "NOT_A_MEMBER_OF_ORGANIZATION",
        message: "You are not a member of this organization",
      });
    }
  });
});
