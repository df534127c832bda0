import { createAuth } from "@tessera/auth-core";
import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { TestBrowser } from "#test/browser.ts";
import {
  activeOrganizationOf,
  addMember,
  createOrganization,
  errorBody,
  signIn,
  useFixtures,
} from "#test/organization.ts";
import { createTestAuth, useFreshTestAuth } from "#test/test-auth.ts";

const setup = useFreshTestAuth();
const fixture = useFixtures();
const oid = (id: string) => new ObjectId(id);

describe("organization/create", () => {
  it("creates the organization, makes the creator its owner and the session's active organization", async () => {
    const t = await setup({ session: { cookieCache: { enabled: true } } });
    const ada = await signIn(t, "ada");
    const res = await ada.browser.post<Record<string, unknown>>("/organization/create", {
      name: "Acme",
      slug: "acme",
      logo: "https://example.com/logo.png",
      metadata: { plan: "pro" },
    });
    expect(res.status).toBe(200);
    const id = res.body.id as string;
    expect(res.body).toMatchObject({
      name: "Acme",
      slug: "acme",
      logo: "https://example.com/logo.png",
      metadata: { plan: "pro" },
      members: [{ organizationId: id, userId: ada.userId, role: "owner", teamId: null }],
    });
    const stored = await t.db.collection("organizations").findOne({ _id: oid(id) });
    expect(stored).toMatchObject({ name: "Acme", slug: "acme", metadata: '{"plan":"pro"}' });
    const members = await t.db
      .collection("members")
      .find({ organizationId: oid(id) })
      .toArray();
    expect(members).toMatchObject([{ userId: oid(ada.userId), role: "owner", seat: 0 }]);
    expect(await activeOrganizationOf(t, ada.userId)).toEqual([id]);
    // The cookie cache was re-issued: get-session shows the new active organization at once.
    const session = await ada.browser.get<{ session: { activeOrganizationId: string } }>("/get-session");
    expect(session.body.session.activeOrganizationId).toBe(id);
  });

  it("keeps the current active organization when asked to", async () => {
    const t = await setup();
    const ada = await signIn(t, "ada");
    const first = await createOrganization(ada, "first");
    const res = await ada.browser.post("/organization/create", {
      name: "Second",
      slug: "second",
      keepCurrentActiveOrganization: true,
    });
    expect(res.status).toBe(200);
    expect(await activeOrganizationOf(t, ada.userId)).toEqual([first]);
  });

  it("refuses a taken slug, also in another case or with spaces (unique index)", async () => {
    const t = await setup();
    const ada = await signIn(t, "ada");
    const bob = await signIn(t, "bob");
    await createOrganization(ada, "acme");
    for (const slug of ["acme", " ACME "]) {
      const res = await bob.browser.post("/organization/create", { name: "Other", slug });
      expect(res).toMatchObject({
        status: 400,
        body: errorBody("ORGANIZATION_ALREADY_EXISTS", "Organization already exists"),
      });
    }
    expect(await t.db.collection("organizations").countDocuments()).toBe(1);
    // The losers' member rows were taken back.
    expect(await t.db.collection("members").countDocuments({ userId: oid(bob.userId) })).toBe(0);
  });

  it("refuses invalid input, a signed-out caller and a userId sent over HTTP", async () => {
    const t = await setup();
    const ada = await signIn(t, "ada");
    const bob = await signIn(t, "bob");
    for (const body of [
      { name: "x", slug: "a b" },
      { name: "", slug: "ok" },
      { name: "x" },
      { name: "x", slug: { $ne: 1 } },
      // Mass assignment: members cannot be smuggled in.
      { name: "x", slug: "x", members: [{ userId: bob.userId, role: "owner" }] },
    ])
      expect((await ada.browser.post("/organization/create", body)).status).toBe(400);
    const anonymous = await new TestBrowser(t.auth).post("/organization/create", { name: "x", slug: "x" });
    expect(anonymous).toMatchObject({ status: 401, body: errorBody("UNAUTHORIZED", "unauthorized") });
    const forged = await ada.browser.post<{ code: string }>("/organization/create", {
      name: "x",
      slug: "x",
      userId: bob.userId,
    });
    expect(forged.status).toBe(400);
    expect(forged.body.code).toBe("VALIDATION_ERROR");
    expect(await t.db.collection("organizations").countDocuments()).toBe(0);
    expect(await t.db.collection("members").countDocuments()).toBe(0);
  });

  it("lets server code create for a given user, and refuses server code with neither user nor session", async () => {
    const t = await setup();
    const ada = await signIn(t, "ada");
    const { data } = await t.auth.api.createOrganization({
      body: { name: "Acme", slug: "acme", userId: ada.userId },
    });
    const id = (data as { id: string }).id;
    expect(await t.db.collection("members").findOne({ organizationId: oid(id) })).toMatchObject({
      userId: oid(ada.userId),
      role: "owner",
    });
    await expect(t.auth.api.createOrganization({ body: { name: "B", slug: "b" } })).rejects.toMatchObject({
      code: "NOT_AUTHENTICATED",
      status: 401,
      message: "Not authenticated",
    });
  });

  it("can be disabled, decided by a function, and capped per user", async () => {
    const t = await setup({
      organization: {
        allowUserToCreateOrganization: (user) => user.email.startsWith("ada"),
        organizationLimit: 1,
      },
    });
    const ada = await signIn(t, "ada");
    const bob = await signIn(t, "bob");
    const refused = await bob.browser.post("/organization/create", { name: "B", slug: "b" });
    expect(refused).toMatchObject({
      status: 403,
      body: errorBody("ORGANIZATION_CREATION_NOT_ALLOWED", "not allowed to create a new organization"),
    });
    await createOrganization(ada, "first");
    const capped = await ada.browser.post("/organization/create", { name: "Second", slug: "second" });
    expect(capped).toMatchObject({
      status: 403,
      body: errorBody("ORGANIZATION_LIMIT_REACHED", "maximum number of organizations reached"),
    });
    expect(await t.db.collection("organizations").countDocuments()).toBe(1);
    const off = await createTestAuth({ organization: { allowUserToCreateOrganization: false } });
    const carl = await signIn(off, "carl");
    expect((await carl.browser.post("/organization/create", { name: "C", slug: "c" })).status).toBe(403);
    await off.close();
  });
});

describe("creator role", () => {
  it("the creator gets the configured creator role, which has the owner's rights and rules", async () => {
    const t = await setup({ organization: { creatorRole: "founder" } });
    const ada = await signIn(t, "ada");
    const id = await createOrganization(ada, "acme");
    expect(await t.db.collection("members").findOne({ organizationId: oid(id) })).toMatchObject({
      role: "founder",
    });
    expect(await ada.browser.post("/organization/leave", { organizationId: id })).toMatchObject({
      status: 400,
      body: errorBody("CANNOT_LEAVE_AS_ONLY_OWNER", "cannot leave as the only owner"),
    });
    expect((await ada.browser.post("/organization/delete", { organizationId: id })).status).toBe(200);
  });
});

describe("organization options", () => {
  it.each([
    [{ roles: { "a,b": {} } }, "organization.roles"],
    [{ creatorRole: "own er" }, "organization.creatorRole"],
    [{ membershipLimit: 0 }, "organization.membershipLimit"],
  ])("refuses %j at startup, naming the option", (organization, name) => {
    expect(() =>
      createAuth({
        database: { uri: "mongodb://127.0.0.1:1" },
        secret: "0123456789abcdef0123",
        organization,
      }),
    ).toThrow(name);
  });
});

describe("organization/check-slug", () => {
  it("answers status true for a free slug and 400 for a taken one; needs a session", async () => {
    const t = await setup();
    const ada = await signIn(t, "ada");
    await createOrganization(ada, "acme");
    expect(await ada.browser.post("/organization/check-slug", { slug: "free" })).toMatchObject({
      status: 200,
      body: { status: true },
    });
    expect(await ada.browser.post("/organization/check-slug", { slug: "Acme" })).toMatchObject({
      status: 400,
      body: errorBody("ORGANIZATION_SLUG_TAKEN", "Organization slug already taken"),
    });
    expect((await new TestBrowser(t.auth).post("/organization/check-slug", { slug: "x" })).status).toBe(401);
  });
});

describe("organization/update", () => {
  it("owner and admin update; a member is refused; a taken slug is refused", async () => {
    const { t, O, D, M, A } = await fixture();
    const res = await O.browser.post("/organization/update", {
      organizationId: A,
      data: { name: "Org A2", slug: "org-a2", metadata: { tier: 2 }, logo: null },
    });
    expect(res).toMatchObject({
      status: 200,
      body: { id: A, name: "Org A2", slug: "org-a2", metadata: { tier: 2 } },
    });
    expect(
      (await D.browser.post("/organization/update", { organizationId: A, data: { name: "By admin" } }))
        .status,
    ).toBe(200);
    const refused = await M.browser.post("/organization/update", {
      organizationId: A,
      data: { name: "Mine" },
    });
    expect(refused).toMatchObject({
      status: 403,
      body: errorBody("ORGANIZATION_UPDATE_NOT_ALLOWED", "not allowed to update or delete this organization"),
    });
    const taken = await O.browser.post("/organization/update", {
      organizationId: A,
      data: { slug: "org-b" },
    });
    expect(taken).toMatchObject({
      status: 400,
      body: errorBody("ORGANIZATION_SLUG_TAKEN", "Organization slug already taken"),
    });
    expect(await t.db.collection("organizations").findOne({ _id: oid(A) })).toMatchObject({
      name: "By admin",
      slug: "org-a2",
      metadata: '{"tier":2}',
    });
  });

  it("uses the active organization when none is named, and fails closed without one", async () => {
    const { t, O, X } = await fixture();
    expect((await O.browser.post("/organization/update", { data: { name: "Active" } })).status).toBe(200);
    expect(await t.db.collection("organizations").countDocuments({ name: "Active" })).toBe(1);
    const none = await X.browser.post("/organization/update", { data: { name: "x" } });
    expect(none).toMatchObject({
      status: 400,
      body: errorBody("NO_ACTIVE_ORGANIZATION", "No active organization"),
    });
    for (const organizationId of ["", null, {}])
      expect(
        (await X.browser.post("/organization/update", { organizationId, data: { name: "x" } })).status,
      ).toBe(400);
  });
});

describe("organization/delete", () => {
  it("only the owner deletes; everything of the organization goes and no session keeps it active", async () => {
    const { t, O, D, M, A, B } = await fixture({ organization: { teams: { enabled: true } } });
    await D.browser.post("/organization/set-active", { organizationId: A });
    await O.browser.post("/organization/invite-member", {
      organizationId: A,
      email: "new@example.com",
      role: "member",
    });
    await O.browser.post("/organization/create-team", { organizationId: A, name: "Team" });
    for (const caller of [D, M]) {
      const res = await caller.browser.post("/organization/delete", { organizationId: A });
      expect(res).toMatchObject({
        status: 403,
        body: errorBody(
          "ORGANIZATION_UPDATE_NOT_ALLOWED",
          "not allowed to update or delete this organization",
        ),
      });
    }
    expect(await t.db.collection("organizations").countDocuments({ _id: oid(A) })).toBe(1);
    for (const body of [{}, { organizationId: "" }])
      expect(await O.browser.post("/organization/delete", body)).toMatchObject({
        status: 400,
        body: errorBody("ORGANIZATION_ID_REQUIRED", "Organization ID is required"),
      });
    const res = await O.browser.post("/organization/delete", { organizationId: A });
    expect(res).toMatchObject({ status: 200, body: { id: A, slug: "org-a" } });
    const orgA = { organizationId: oid(A) };
    expect(await t.db.collection("organizations").countDocuments({ _id: oid(A) })).toBe(0);
    for (const name of ["members", "invitations", "teams", "teamMembers"])
      expect(await t.db.collection(name).countDocuments(orgA), name).toBe(0);
    expect(await t.db.collection("sessions").countDocuments({ activeOrganizationId: A })).toBe(0);
    // Organization B is untouched.
    expect(await t.db.collection("members").countDocuments({ organizationId: oid(B) })).toBe(2);
  });

  it("answers 404 when deletion is disabled", async () => {
    const { t, O, A } = await fixture({ organization: { disableOrganizationDeletion: true } });
    expect(await O.browser.post("/organization/delete", { organizationId: A })).toMatchObject({
      status: 404,
      body: errorBody("ORGANIZATION_DELETION_DISABLED", "Organization deletion is disabled"),
    });
    expect(await t.db.collection("organizations").countDocuments({ _id: oid(A) })).toBe(1);
  });
});

describe("organization/list and set-active", () => {
  it("lists only the caller's organizations", async () => {
    const { O, Q, X, A, B } = await fixture();
    const mine = await O.browser.get<{ id: string }[]>("/organization/list");
    expect(mine.body.map((org) => org.id)).toEqual([A]);
    expect((await Q.browser.get<{ id: string }[]>("/organization/list")).body.map((org) => org.id)).toEqual([
      B,
    ]);
    expect((await X.browser.get("/organization/list")).body).toEqual([]);
  });

  it("sets by id or slug, clears with null, and re-issues the cookie cache", async () => {
    const { t, O, A } = await fixture({ session: { cookieCache: { enabled: true } } });
    const second = await createOrganization(O, "second");
    const readActive = async () =>
      (await O.browser.get<{ session: { activeOrganizationId: string | null } }>("/get-session")).body.session
        .activeOrganizationId;
    expect(await readActive()).toBe(second);
    const bySlug = await O.browser.post("/organization/set-active", { organizationSlug: "org-a" });
    expect(bySlug).toMatchObject({ status: 200, body: { id: A, slug: "org-a" } });
    expect(await readActive()).toBe(A);
    expect((await O.browser.post("/organization/set-active", { organizationId: second })).status).toBe(200);
    expect(await readActive()).toBe(second);
    expect(await O.browser.post("/organization/set-active", { organizationId: null })).toMatchObject({
      status: 200,
      body: null,
    });
    expect(await readActive()).toBeNull();
    expect(await activeOrganizationOf(t, O.userId)).toEqual([null]);
  });

  it("refuses a non-member and leaves the session as it was", async () => {
    const { t, X, A } = await fixture();
    const theirs = await createOrganization(X, "x-org");
    for (const body of [{ organizationId: A }, { organizationSlug: "org-a" }, { organizationId: "nope" }]) {
      const res = await X.browser.post("/organization/set-active", body);
      expect(res).toMatchObject({
        status: 403,
        body: errorBody("NOT_A_MEMBER_OF_ORGANIZATION", "You are not a member of this organization"),
      });
    }
    expect(await activeOrganizationOf(t, X.userId)).toEqual([theirs]);
  });
});

describe("organization/get-full-organization", () => {
  it("returns the active organization with members (and users), invitations and teams", async () => {
    const { O, D, M, A } = await fixture({ organization: { teams: { enabled: true } } });
    await O.browser.post("/organization/invite-member", {
      organizationId: A,
      email: "new@example.com",
      role: "member",
    });
    await O.browser.post("/organization/create-team", { organizationId: A, name: "Core" });
    const res = await O.browser.get<{
      id: string;
      members: { userId: string; role: string; user: { email: string } }[];
      invitations: { email: string; status: string }[];
      teams: { name: string }[];
    }>("/organization/get-full-organization");
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(A);
    expect(res.body.members.map((m) => [m.userId, m.role, m.user.email])).toEqual([
      [O.userId, "owner", O.email],
      [D.userId, "admin", D.email],
      [M.userId, "member", M.email],
    ]);
    expect(res.body.invitations).toMatchObject([{ email: "new@example.com", status: "pending" }]);
    expect(res.body.teams).toMatchObject([{ name: "Core" }]);
    const limited = await O.browser.get<{ members: unknown[] }>(
      "/organization/get-full-organization?organizationSlug=org-a&membersLimit=2",
    );
    expect(limited.body.members).toHaveLength(2);
  });

  it("answers over HTTP with exactly the JSON text of the server API's answer (issue 16: written directly)", async () => {
    const { t, O, A } = await fixture({ organization: { teams: { enabled: true } } });
    await O.browser.post("/organization/invite-member", {
      organizationId: A,
      email: "new@example.com",
      role: "member",
    });
    await O.browser.post("/organization/create-team", { organizationId: A, name: 'Core "Ω"' });
    await O.browser.post("/organization/update", { organizationId: A, data: { metadata: { plan: "pro" } } });
    const headers = new Headers({ cookie: O.browser.cookieHeader() });
    for (const [path, api] of [
      ["/organization/get-full-organization", t.auth.api.getFullOrganization],
      ["/organization/list-members?limit=2&offset=1", t.auth.api.listMembers],
    ] as const) {
      const res = await O.browser.get(path);
      const query = Object.fromEntries(new URL(path, "http://x").searchParams);
      const { data } = await (api as (input: unknown) => Promise<{ data: unknown }>)({ headers, query });
      expect(await res.response.text()).toBe(JSON.stringify(data));
    }
  });

  it("answers null with no active organization, 403 for non-members", async () => {
    const { X, A } = await fixture();
    expect(await X.browser.get("/organization/get-full-organization")).toMatchObject({
      status: 200,
      body: null,
    });
    for (const query of [
      `organizationId=${A}`,
      "organizationSlug=org-a",
      "organizationId=000000000000000000000000",
    ])
      expect(await X.browser.get(`/organization/get-full-organization?${query}`)).toMatchObject({
        status: 403,
        body: errorBody("NOT_A_MEMBER_OF_ORGANIZATION", "You are not a member of this organization"),
      });
  });
});

describe("server-only add-member", () => {
  it("does not exist over HTTP", async () => {
    const { O, X, A } = await fixture();
    const res = await O.browser.post("/organization/add-member", {
      organizationId: A,
      userId: X.userId,
      role: "member",
    });
    expect(res.status).toBe(404);
  });

  it("adds with the given roles; refuses unknown roles, unknown users, existing members and a full organization", async () => {
    const { t, X, M, A } = await fixture({ organization: { membershipLimit: 4 } });
    const api = t.auth.api.addMember!;
    await expect(api({ body: { organizationId: A, userId: X.userId, role: "boss" } })).rejects.toMatchObject({
      code: "MEMBER_ROLE_NOT_FOUND",
    });
    await expect(
      api({ body: { organizationId: A, userId: "000000000000000000000000", role: "member" } }),
    ).rejects.toMatchObject({ code: "MEMBER_USER_NOT_FOUND" });
    await expect(
      api({ body: { organizationId: "000000000000000000000000", userId: X.userId, role: "member" } }),
    ).rejects.toMatchObject({
      code: "ORGANIZATION_NOT_FOUND",
      status: 400,
      message: "Organization not found",
    });
    await expect(api({ body: { userId: X.userId, role: "member" } })).rejects.toMatchObject({
      code: "NO_ACTIVE_ORGANIZATION",
    });
    await expect(
      api({ body: { organizationId: A, userId: M.userId, role: "member" } }),
    ).rejects.toMatchObject({
      code: "MEMBER_ALREADY_EXISTS",
      status: 400,
    });
    const added = await api({ body: { organizationId: A, userId: X.userId, role: ["admin", "member"] } });
    expect(added.data).toMatchObject({ organizationId: A, userId: X.userId, role: "admin,member" });
    const extra = await signIn(t, "extra");
    await expect(addMember(t, A, extra, "member")).rejects.toMatchObject({
      code: "MEMBERSHIP_LIMIT_REACHED",
      status: 403,
      message: "Organization membership limit reached",
    });
    expect(await t.db.collection("members").countDocuments({ organizationId: oid(A) })).toBe(4);
  });
});
