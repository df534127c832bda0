import { ObjectId } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrganization, type SignedIn, signIn } from "#test/organization.ts";
import { createTestAuth, type TestAuth } from "#test/test-auth.ts";

/**
 * list and list-teams page past 100 (review of issue 3): `limit` (1–100, default 100) and `offset`,
 * oldest first, so every organization and team can be reached; get-full-organization stays capped.
 */
let t: TestAuth;
let owner: SignedIn;
let home: string;
const TOTAL = 105;

beforeAll(async () => {
  t = await createTestAuth({ organization: { teams: { enabled: true } } });
  owner = await signIn(t, "owner");
  home = await createOrganization(owner, "home");
  const start = t.now().getTime() + 1000;
  const organizations = Array.from({ length: TOTAL - 1 }, (_, i) => ({
    _id: new ObjectId(),
    name: `Org ${i}`,
    slug: `org-${i}`,
    logo: null,
    metadata: null,
    createdAt: new Date(start + i),
  }));
  await t.db.collection("organizations").insertMany(organizations);
  await t.db.collection("members").insertMany(
    organizations.map((organization, i) => ({
      _id: new ObjectId(),
      organizationId: organization._id,
      userId: new ObjectId(owner.userId),
      role: "owner",
      createdAt: new Date(start + i),
      teamId: null,
      seat: 0,
    })),
  );
  await t.db.collection("teams").insertMany(
    Array.from({ length: TOTAL }, (_, i) => ({
      _id: new ObjectId(),
      name: `Team ${i}`,
      organizationId: new ObjectId(home),
      createdAt: new Date(start + i),
      updatedAt: null,
    })),
  );
}, 60_000);
afterAll(async () => {
  await t.close();
});

type Named = { name: string }[];
const names = (body: Named) => body.map((row) => row.name);

describe("paging past 100", () => {
  it("list: 100 by default, the rest with offset, any window with limit", async () => {
    const first = await owner.browser.get<Named>("/organization/list");
    expect(first.status).toBe(200);
    expect(names(first.body)).toEqual(["home", ...Array.from({ length: 99 }, (_, i) => `Org ${i}`)]);
    const rest = await owner.browser.get<Named>("/organization/list?offset=100");
    expect(names(rest.body)).toEqual(["Org 99", "Org 100", "Org 101", "Org 102", "Org 103"]);
    const window = await owner.browser.get<Named>("/organization/list?limit=2&offset=1");
    expect(names(window.body)).toEqual(["Org 0", "Org 1"]);
  });

  it("list-teams: 100 by default, the rest with offset, any window with limit", async () => {
    const path = `/organization/list-teams?organizationId=${home}`;
    const first = await owner.browser.get<Named>(path);
    expect(names(first.body)).toEqual(Array.from({ length: 100 }, (_, i) => `Team ${i}`));
    const rest = await owner.browser.get<Named>(`${path}&offset=100`);
    expect(names(rest.body)).toEqual(["Team 100", "Team 101", "Team 102", "Team 103", "Team 104"]);
    const window = await owner.browser.get<Named>(`${path}&limit=3&offset=50`);
    expect(names(window.body)).toEqual(["Team 50", "Team 51", "Team 52"]);
  });

  it.each([
    "/organization/list?limit=0",
    "/organization/list?limit=101",
    "/organization/list?offset=-1",
    "/organization/list?page=2",
    "/organization/list-teams?limit=101",
    "/organization/list-teams?offset=x",
  ])("%s is refused", async (path) => {
    const res = await owner.browser.get<{ code: string }>(path);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("VALIDATION_ERROR");
  });

  it("get-full-organization stays capped at 100 teams (list-teams pages further)", async () => {
    const res = await owner.browser.get<{ teams: Named }>(
      `/organization/get-full-organization?organizationId=${home}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.teams).toHaveLength(100);
  });
});
