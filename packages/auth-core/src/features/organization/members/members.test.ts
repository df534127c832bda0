import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import {
  activeOrganizationOf,
  addMember,
  errorBody,
  memberRoles,
  signIn,
  useFixtures,
} from "#test/organization.ts";

const fixture = useFixtures();
const NOT_MEMBER = errorBody("NOT_A_MEMBER_OF_ORGANIZATION", "You are not a member of this organization");
const ONLY_OWNER = errorBody("CANNOT_LEAVE_AS_ONLY_OWNER", "cannot leave as the only owner");

describe("organization/list-members", () => {
  it("pages with limit and offset, sorts, and gives the total", async () => {
    const { O, D, M, A } = await fixture();
    const all = await O.browser.get<{
      members: { userId: string; user: { email: string } }[];
      total: number;
    }>(`/organization/list-members?organizationId=${A}`);
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(3);
    expect(all.body.members.map((m) => m.user.email)).toEqual([O.email, D.email, M.email]);
    const page = await O.browser.get<{ members: { userId: string }[]; total: number }>(
      "/organization/list-members?limit=1&offset=1",
    );
    expect(page.body).toMatchObject({ total: 3, members: [{ userId: D.userId }] });
    const byRole = await O.browser.get<{ members: { role: string }[] }>(
      "/organization/list-members?sortBy=role&sortDirection=desc",
    );
    expect(byRole.body.members.map((m) => m.role)).toEqual(["owner", "member", "admin"]);
    for (const query of ["limit=0", "limit=101", "offset=-1", "sortBy=email", "limit=abc"])
      expect((await O.browser.get(`/organization/list-members?${query}`)).status).toBe(400);
  });

  it("refuses non-members, by id and by slug, with the body of a missing organization", async () => {
    const { X, A } = await fixture();
    for (const query of [`organizationId=${A}`, "organizationSlug=org-a", "organizationSlug=missing"])
      expect(await X.browser.get(`/organization/list-members?${query}`)).toMatchObject({
        status: 403,
        body: NOT_MEMBER,
      });
  });
});

describe("organization/remove-member", () => {
  it("an admin removes a member by id or by email; their active organization and teams go with them", async () => {
    const { t, O, D, M, X, A, members } = await fixture();
    const res = await D.browser.post("/organization/remove-member", { memberIdOrEmail: members.M });
    expect(res).toMatchObject({
      status: 200,
      body: { member: { id: members.M, userId: M.userId, role: "member" } },
    });
    expect(await activeOrganizationOf(t, M.userId)).toEqual([null]);
    await addMember(t, A, X, "member");
    const byEmail = await O.browser.post("/organization/remove-member", {
      memberIdOrEmail: " OUTSIDER-X@example.com ",
    });
    expect(byEmail.status).toBe(200);
    expect(await memberRoles(t, A)).toEqual({ [O.userId]: "owner", [D.userId]: "admin" });
  });

  it("a member may not remove; an admin may not remove the owner; unknown targets are not found", async () => {
    const { t, O, D, M, Q, A, members } = await fixture();
    expect(await M.browser.post("/organization/remove-member", { memberIdOrEmail: members.D })).toMatchObject(
      {
        status: 403,
        body: errorBody("MEMBER_DELETE_NOT_ALLOWED", "not allowed to delete this member"),
      },
    );
    expect(await D.browser.post("/organization/remove-member", { memberIdOrEmail: members.O })).toMatchObject(
      {
        status: 403,
        body: errorBody("MEMBER_DELETE_NOT_ALLOWED", "not allowed to delete this member"),
      },
    );
    for (const memberIdOrEmail of [
      members.Q,
      Q.email,
      "nobody@example.com",
      "not-an-id",
      "000000000000000000000000",
    ])
      expect(await D.browser.post("/organization/remove-member", { memberIdOrEmail })).toMatchObject({
        status: 400,
        body: errorBody("MEMBER_NOT_FOUND", "Member not found"),
      });
    expect(await O.browser.post("/organization/remove-member", { memberIdOrEmail: members.O })).toMatchObject(
      {
        status: 400,
        body: ONLY_OWNER,
      },
    );
    expect(Object.keys(await memberRoles(t, A))).toHaveLength(3);
  });
});

describe("organization/update-member-role", () => {
  it("an owner changes roles, also to several; a second owner lets the first step down", async () => {
    const { t, O, D, M, A, members } = await fixture();
    const res = await O.browser.post("/organization/update-member-role", {
      memberId: members.M,
      role: ["admin", "member"],
    });
    expect(res).toMatchObject({ status: 200, body: { id: members.M, role: "admin,member" } });
    expect(
      (await O.browser.post("/organization/update-member-role", { memberId: members.D, role: "owner" }))
        .status,
    ).toBe(200);
    expect(
      (await O.browser.post("/organization/update-member-role", { memberId: members.O, role: "member" }))
        .status,
    ).toBe(200);
    expect(await memberRoles(t, A)).toEqual({
      [O.userId]: "member",
      [D.userId]: "owner",
      [M.userId]: "admin,member",
    });
  });

  it("refuses self-promotion, an admin touching the owner, unknown roles and demoting the sole owner", async () => {
    const { t, O, D, M, A, members } = await fixture();
    const before = await memberRoles(t, A);
    const notAllowed = {
      status: 403,
      body: errorBody("MEMBER_UPDATE_NOT_ALLOWED", "not allowed to update this member"),
    };
    for (const role of ["owner", "admin", ["admin", "owner"], "OWNER"])
      expect(
        await M.browser.post("/organization/update-member-role", { memberId: members.M, role }),
      ).toMatchObject(notAllowed);
    expect(
      await D.browser.post("/organization/update-member-role", { memberId: members.D, role: "owner" }),
    ).toMatchObject(notAllowed);
    expect(
      await D.browser.post("/organization/update-member-role", { memberId: members.O, role: "member" }),
    ).toMatchObject(notAllowed);
    expect(
      await O.browser.post("/organization/update-member-role", { memberId: members.M, role: "boss" }),
    ).toMatchObject({
      status: 400,
      body: errorBody("MEMBER_ROLE_NOT_FOUND", "Role not found"),
    });
    expect(
      await O.browser.post("/organization/update-member-role", { memberId: members.O, role: "admin" }),
    ).toMatchObject({
      status: 400,
      body: ONLY_OWNER,
    });
    expect(
      await O.browser.post("/organization/update-member-role", { memberId: members.Q, role: "admin" }),
    ).toMatchObject({
      status: 400,
      body: errorBody("MEMBER_NOT_FOUND", "Member not found"),
    });
    expect(
      (await O.browser.post("/organization/update-member-role", { memberId: members.M, role: "" })).status,
    ).toBe(400);
    expect(await memberRoles(t, A)).toEqual(before);
  });
});

describe("organization/leave", () => {
  it("a member leaves: the row, the active organization and their team memberships go", async () => {
    const { t, M, A } = await fixture();
    await M.browser.post("/organization/set-active", { organizationId: A });
    const res = await M.browser.post("/organization/leave", { organizationId: A });
    expect(res).toMatchObject({ status: 200, body: { userId: M.userId, organizationId: A } });
    expect(await t.db.collection("members").countDocuments({ userId: new ObjectId(M.userId) })).toBe(0);
    expect(await activeOrganizationOf(t, M.userId)).toEqual([null]);
    expect(await M.browser.post("/organization/leave", { organizationId: A })).toMatchObject({
      status: 403,
      body: NOT_MEMBER,
    });
  });

  it("with the cookie cache on, get-session stops showing the organization at once", async () => {
    const { M, A } = await fixture({ session: { cookieCache: { enabled: true } } });
    const active = async () =>
      (await M.browser.get<{ session: { activeOrganizationId: string | null } }>("/get-session")).body.session
        .activeOrganizationId;
    expect(await active()).toBe(A);
    expect((await M.browser.post("/organization/leave", { organizationId: A })).status).toBe(200);
    expect(await active()).toBeNull();
  });

  it("the sole owner cannot leave; with a second owner they can", async () => {
    const { t, O, D, A, members } = await fixture();
    expect(await O.browser.post("/organization/leave", { organizationId: A })).toMatchObject({
      status: 400,
      body: ONLY_OWNER,
    });
    expect(await O.browser.post("/organization/leave", {})).toMatchObject({
      status: 400,
      body: errorBody("ORGANIZATION_ID_REQUIRED", "Organization ID is required"),
    });
    await O.browser.post("/organization/update-member-role", { memberId: members.D, role: "owner" });
    expect((await O.browser.post("/organization/leave", { organizationId: A })).status).toBe(200);
    expect(await memberRoles(t, A)).toMatchObject({ [D.userId]: "owner" });
  });
});

describe("active member, role and has-permission", () => {
  it("get-active-member and get-active-member-role answer for the active organization", async () => {
    const { O, D, M, X, A } = await fixture();
    const member = await O.browser.get("/organization/get-active-member");
    expect(member).toMatchObject({
      status: 200,
      body: { userId: O.userId, role: "owner", user: { email: O.email } },
    });
    expect(await O.browser.get("/organization/get-active-member-role")).toMatchObject({
      status: 200,
      body: { role: "owner" },
    });
    expect(await O.browser.get(`/organization/get-active-member-role?userId=${D.userId}`)).toMatchObject({
      body: { role: "admin" },
    });
    expect(await O.browser.get(`/organization/get-active-member-role?userId=${X.userId}`)).toMatchObject({
      status: 400,
      body: errorBody("USER_NOT_MEMBER", "User is not a member of the organization"),
    });
    expect(await X.browser.get("/organization/get-active-member")).toMatchObject({
      status: 400,
      body: errorBody("NO_ACTIVE_ORGANIZATION", "No active organization"),
    });
    expect((await M.browser.get("/organization/get-active-member")).status).toBe(200);
    expect(await X.browser.get(`/organization/get-active-member-role?organizationId=${A}`)).toMatchObject({
      status: 403,
      body: NOT_MEMBER,
    });
  });

  it("get-active-member answers Member not found once the caller was removed", async () => {
    const { O, M, A, members } = await fixture();
    await M.browser.post("/organization/set-active", { organizationId: A });
    // Removal clears the active organization in the database; this session is read from it.
    await O.browser.post("/organization/remove-member", { memberIdOrEmail: members.M });
    expect((await M.browser.get("/organization/get-active-member")).status).toBe(400);
  });

  it("has-permission answers per the caller's roles, and refuses non-members", async () => {
    const { D, M, X, A } = await fixture();
    const ask = (who: typeof D, permissions: Record<string, string[]>) =>
      who.browser.post("/organization/has-permission", { organizationId: A, permissions });
    expect(await ask(D, { member: ["create", "delete"] })).toMatchObject({
      status: 200,
      body: { error: null, success: true },
    });
    expect(await ask(D, { organization: ["delete"] })).toMatchObject({
      status: 200,
      body: { error: "unauthorized to access resource", success: false },
    });
    expect(await ask(M, { invitation: ["create"] })).toMatchObject({
      body: { error: "not allowed to access resource", success: false },
    });
    expect(await ask(D, { team: [] })).toMatchObject({ body: { error: "Not authorized", success: false } });
    expect(await ask(X, { invitation: ["create"] })).toMatchObject({ status: 403, body: NOT_MEMBER });
    const legacy = await D.browser.post("/organization/has-permission", {
      organizationId: A,
      permission: { team: ["create"] },
    });
    expect(legacy.body).toEqual({ error: null, success: true });
    expect((await D.browser.post("/organization/has-permission", { organizationId: A })).status).toBe(400);
  });

  it("a custom role with member:update still cannot change or remove the owner", async () => {
    const { t, O, A, members } = await fixture({
      organization: { roles: { manager: { member: ["update", "delete"] } } },
    });
    const manager = await signIn(t, "manager");
    await addMember(t, A, manager, "manager");
    const asManager = (path: string, body: object) =>
      manager.browser.post(path, { organizationId: A, ...body });
    expect(
      await asManager("/organization/update-member-role", { memberId: members.O, role: "member" }),
    ).toMatchObject({
      status: 403,
    });
    expect(await asManager("/organization/remove-member", { memberIdOrEmail: members.O })).toMatchObject({
      status: 403,
    });
    expect(
      await asManager("/organization/update-member-role", { memberId: members.M, role: "manager" }),
    ).toMatchObject({
      status: 200,
    });
    expect((await memberRoles(t, A))[O.userId]).toBe("owner");
  });

  it("custom roles from options are granted and checked", async () => {
    const { t, O, A } = await fixture({ organization: { roles: { support: { invitation: ["create"] } } } });
    const S = await signIn(t, "support");
    await addMember(t, A, S, "support");
    const res = await S.browser.post("/organization/invite-member", {
      organizationId: A,
      email: "n@example.com",
      role: "member",
    });
    expect(res.status).toBe(200);
    expect(
      (await S.browser.post("/organization/update", { organizationId: A, data: { name: "x" } })).status,
    ).toBe(403);
    // An owner may grant the custom role; the support role cannot mint admins.
    expect(
      (
        await S.browser.post("/organization/invite-member", {
          organizationId: A,
          email: "m@example.com",
          role: "admin",
        })
      ).status,
    ).toBe(403);
    expect(O.userId).toBeTruthy();
  });
});
