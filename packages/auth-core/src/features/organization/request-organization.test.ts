import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { TestBrowser } from "#test/browser.ts";
import { activeOrganizationOf, errorBody, type Fixture, useFixtures } from "#test/organization.ts";
import { TEST_ORIGIN } from "#test/test-auth.ts";

/**
 * docs/decisions.md "Active organization per request": the x-tessera-organization header names the
 * organization of one request instead of the session's active one; membership is checked on every
 * call (docs/security.md), and the session's active organization is never written by it.
 */
const HEADER = "x-tessera-organization";
const openFixture = useFixtures({ organization: { teams: { enabled: true } } });
const NOT_MEMBER = {
  status: 403,
  body: errorBody("NOT_A_MEMBER_OF_ORGANIZATION", "You are not a member of this organization"),
};

/** Org A's owner O also joins org B as an admin; O's session keeps A active. Two tabs of O's one session. */
async function twoTabs(): Promise<Fixture & { tabA: TestBrowser; tabB: TestBrowser }> {
  const f = await openFixture();
  await f.t.auth.api.addMember({ body: { organizationId: f.B, userId: f.O.userId, role: "admin" } });
  const tab = (organizationId: string) => {
    const browser = new TestBrowser(f.t.auth);
    for (const [name, value] of f.O.browser.cookies) browser.cookies.set(name, value);
    const request = browser.request.bind(browser);
    browser.request = (method, path, options = {}) =>
      request(method, path, { ...options, headers: { [HEADER]: organizationId, ...options.headers } });
    return browser;
  };
  return { ...f, tabA: tab(f.A), tabB: tab(f.B) };
}
async function teamNames(f: Fixture, organizationId: string): Promise<string[]> {
  const rows = await f.t.db
    .collection("teams")
    .find({ organizationId: new ObjectId(organizationId) })
    .toArray();
  return rows.map((row) => String(row.name)).sort();
}

describe("two tabs of one session work in two organizations at once", () => {
  it("each request works in its header's organization; the session's active organization is untouched", async () => {
    const f = await twoTabs();
    const [fullA, fullB] = await Promise.all([
      f.tabA.get<{ slug: string }>("/organization/get-full-organization"),
      f.tabB.get<{ slug: string }>("/organization/get-full-organization"),
    ]);
    expect([fullA.body.slug, fullB.body.slug]).toEqual(["org-a", "org-b"]);
    const [createdA, createdB] = await Promise.all([
      f.tabA.post("/organization/create-team", { name: "Team in A" }),
      f.tabB.post("/organization/create-team", { name: "Team in B" }),
    ]);
    expect([createdA.status, createdB.status]).toEqual([200, 200]);
    expect(await teamNames(f, f.A)).toEqual(["Team in A"]);
    expect(await teamNames(f, f.B)).toEqual(["Team in B"]);
    const [roleA, roleB] = await Promise.all([
      f.tabA.get<{ role: string }>("/organization/get-active-member"),
      f.tabB.get<{ role: string }>("/organization/get-active-member"),
    ]);
    expect([roleA.body.role, roleB.body.role]).toEqual(["owner", "admin"]);
    const invited = await f.tabB.post<{ organizationId: string }>("/organization/invite-member", {
      email: "new@example.com",
      role: "member",
    });
    expect(invited).toMatchObject({ status: 200, body: { organizationId: f.B } });
    expect(await activeOrganizationOf(f.t, f.O.userId)).toEqual([f.A]);
    const session = await f.tabB.get<{ session: { activeOrganizationId: string } }>("/get-session");
    expect(session.body.session.activeOrganizationId).toBe(f.A);
  });

  it("without an active organization on the session, the header alone names one", async () => {
    const f = await twoTabs();
    await f.O.browser.post("/organization/set-active", { organizationId: null });
    expect((await f.O.browser.get("/organization/get-full-organization")).body).toBeNull();
    expect((await f.tabB.get<{ slug: string }>("/organization/get-full-organization")).body.slug).toBe(
      "org-b",
    );
    expect(await activeOrganizationOf(f.t, f.O.userId)).toEqual([null]);
  });

  it("the session's active team goes with the session's organization only", async () => {
    const f = await twoTabs();
    const team = await f.O.browser.post<{ id: string }>("/organization/create-team", {
      organizationId: f.A,
      name: "Core",
    });
    await f.O.browser.post("/organization/add-team-member", { teamId: team.body.id, userId: f.O.userId });
    expect((await f.O.browser.post("/organization/set-active-team", { teamId: team.body.id })).status).toBe(
      200,
    );
    expect((await f.tabA.get<unknown[]>("/organization/list-team-members")).body).toHaveLength(1);
    expect(await f.tabB.get("/organization/list-team-members")).toMatchObject({
      status: 400,
      body: errorBody("TEAM_NO_ACTIVE_TEAM", "You do not have an active team"),
    });
  });
});

describe("a header naming an organization the caller is not in is refused, never ignored", () => {
  it("a foreign, an unknown and a malformed id get one answer, and nothing changes", async () => {
    const f = await openFixture();
    const withHeader = (value: string) => ({ headers: { [HEADER]: value } });
    for (const value of [f.B, new ObjectId().toHexString(), "not-an-id"]) {
      expect(await f.M.browser.get("/organization/get-full-organization", withHeader(value))).toMatchObject(
        NOT_MEMBER,
      );
      expect(
        await f.O.browser.post("/organization/create-team", { name: "Sneaky" }, withHeader(value)),
      ).toMatchObject(NOT_MEMBER);
      // Naming the organization in the body as well does not get the header past its check.
      expect(
        await f.O.browser.post(
          "/organization/create-team",
          { organizationId: f.A, name: "Sneaky" },
          withHeader(value),
        ),
      ).toMatchObject(NOT_MEMBER);
      expect(
        await f.O.browser.post("/organization/update", { data: { name: "Renamed" } }, withHeader(value)),
      ).toMatchObject(NOT_MEMBER);
    }
    expect(await teamNames(f, f.A)).toEqual([]);
    expect(await teamNames(f, f.B)).toEqual([]);
    expect((await f.t.db.collection("organizations").findOne({ _id: new ObjectId(f.B) }))?.name).toBe(
      "org-b",
    );
    expect(await activeOrganizationOf(f.t, f.O.userId)).toEqual([f.A]);
  });

  it("a member removed since is refused at once", async () => {
    const f = await openFixture();
    expect(
      (await f.M.browser.get("/organization/get-active-member", { headers: { [HEADER]: f.A } })).status,
    ).toBe(200);
    await f.O.browser.post("/organization/remove-member", {
      organizationId: f.A,
      memberIdOrEmail: f.M.email,
    });
    expect(
      await f.M.browser.get("/organization/get-active-member", { headers: { [HEADER]: f.A } }),
    ).toMatchObject(NOT_MEMBER);
  });
});

describe("CORS", () => {
  it("a preflight from a trusted origin may send the header", async () => {
    const f = await openFixture();
    const preflight = await f.t.auth.handler(
      new Request(`${TEST_ORIGIN}/api/auth/organization/create-team`, {
        method: "OPTIONS",
        headers: {
          origin: TEST_ORIGIN,
          "access-control-request-method": "POST",
          "access-control-request-headers": `content-type, ${HEADER}`,
        },
      }),
      { cors: true },
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")?.split(", ")).toContain(HEADER);
  });
});
