import { ObjectId } from "mongodb";
import { beforeEach, describe, expect, it } from "vitest";
import {
  auditEvents,
  PASSWORD,
  signIn,
  signUpPerson,
  USER_NOT_FOUND,
  useAdminCast,
  userDoc,
} from "#test/admin.ts";
import { TestBrowser } from "#test/browser.ts";
import { createTestAuth } from "#test/test-auth.ts";

const { t, admin, user } = useAdminCast();

const users = () => t.db.collection("users");

describe("list-users", () => {
  beforeEach(async () => {
    await signUpPerson(t, "carol.smith");
    await signUpPerson(t, "dave");
    await users().updateOne({ email: "dave@example.com" }, { $set: { name: "Dave SMITH" } });
  });

  it("lists every user with role and ban state, newest first, with the total", async () => {
    const res = await admin.browser.get<{ users: { email: string; role: string }[]; total: number }>(
      "/admin/list-users",
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 4, limit: 100, offset: 0 });
    expect(res.body.users.map((u) => u.email)).toEqual([
      "dave@example.com",
      "carol.smith@example.com",
      "user@example.com",
      "admin@example.com",
    ]);
    expect(res.body.users[3]).toMatchObject({
      role: "admin",
      banned: false,
      banReason: null,
      banExpires: null,
    });
    expect(res.body.users[0]).toMatchObject({ role: "user", emailVerified: false });
    expect(Object.keys(res.body.users[0]!)).not.toContain("password");
  });

  it("answers over HTTP, byte for byte, what auth.api returns (the JSON text is written directly)", async () => {
    await admin.browser.post("/admin/ban-user", {
      userId: user.id,
      banReason: 'spam "bot"',
      banExpiresIn: 3600,
    });
    await admin.browser.post("/admin/set-role", { userId: user.id, role: ["admin", "user"] });
    await users().updateOne(
      { email: "dave@example.com" },
      { $set: { language: "SPA", image: "https://x/é.png" } },
    );
    const headers = new Headers({ cookie: admin.browser.cookieHeader() });
    // The timeline page, an address prefix, and a scan of the users collection.
    for (const path of [
      "/admin/list-users?limit=3&offset=1",
      "/admin/list-users?searchValue=CAROL&searchOperator=starts_with",
      "/admin/list-users?searchField=name&searchValue=smith&sortBy=name",
    ]) {
      const res = await admin.browser.get(path);
      const query = Object.fromEntries(new URL(path, "http://x").searchParams);
      const { data } = await (t.auth.api.listUsers as (input: unknown) => Promise<{ data: unknown }>)({
        headers,
        query,
      });
      expect(await res.response.text()).toBe(JSON.stringify(data));
    }
  });

  it("searches by name case-insensitively; the total respects the search", async () => {
    const res = await admin.browser.get<{ users: { email: string }[]; total: number }>(
      "/admin/list-users?searchField=name&searchValue=smith",
    );
    expect(res.body.total).toBe(2);
    expect(res.body.users.map((u) => u.email).sort()).toEqual([
      "carol.smith@example.com",
      "dave@example.com",
    ]);
  });

  it("treats regex metacharacters in the search literally", async () => {
    const dot = await admin.browser.get<{ total: number }>("/admin/list-users?searchValue=l.smith");
    expect(dot.body.total).toBe(1);
    const star = await admin.browser.get<{ total: number }>("/admin/list-users?searchValue=.*");
    expect(star.status).toBe(200);
    expect(star.body.total).toBe(0);
  });

  it("filters, sorts and paginates; the total counts all pages", async () => {
    const page = await admin.browser.get<{ users: { email: string }[]; total: number; limit: number }>(
      "/admin/list-users?filterField=role&filterValue=user&sortBy=email&sortDirection=asc&limit=2&offset=1",
    );
    expect(page.status).toBe(200);
    expect(page.body.total).toBe(3);
    expect(page.body.limit).toBe(2);
    expect(page.body.users.map((u) => u.email)).toEqual(["dave@example.com", "user@example.com"]);
    const admins = await admin.browser.get<{ total: number }>(
      "/admin/list-users?filterField=role&filterValue=admin",
    );
    expect(admins.body.total).toBe(1);
  });

  it("caps limit at 100", async () => {
    const res = await admin.browser.get<{ limit: number }>("/admin/list-users?limit=1000");
    expect(res.body.limit).toBe(100);
  });

  it.each([
    "filterField=password&filterValue=x",
    "filterField=email&filterValue=x&filterOperator=%24where",
    "sortBy=password",
    "searchValue[$ne]=x",
    "limit=-5",
  ])("refuses a field or operator outside the whitelist (%s) with 400", async (query) => {
    const res = await admin.browser.get<{ code: string }>(`/admin/list-users?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("VALIDATION_ERROR");
  });
});

describe("get-user", () => {
  it("returns the user with role and ban state", async () => {
    const res = await admin.browser.get(`/admin/get-user?id=${user.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: user.id, email: user.email, role: "user", banned: false });
  });

  it.each(["000000000000000000000000", "not-an-id", "'; drop"])("answers 404 for %s", async (id) => {
    const res = await admin.browser.get(`/admin/get-user?id=${encodeURIComponent(id)}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(USER_NOT_FOUND);
  });
});

describe("create-user", () => {
  it("creates a user with a password marked for reset, and records it", async () => {
    const res = await admin.browser.post<{ user: { id: string; role: string } }>("/admin/create-user", {
      email: " New@Example.com ",
      name: "New",
      password: PASSWORD,
      role: "admin",
      data: { emailVerified: true },
    });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ email: "new@example.com", role: "admin", emailVerified: true });
    const stored = await userDoc(t, res.body.user.id);
    expect(stored).toMatchObject({ email: "new@example.com", role: "admin", emailVerified: true });
    expect(await t.db.collection("accounts").countDocuments({ userId: stored!._id })).toBe(1);
    // The admin chose it: it signs nobody in until the user resets it.
    const account = await t.db.collection("accounts").findOne({ userId: stored!._id });
    expect(account).toMatchObject({ providerId: "credential", passwordResetRequired: true });
    expect((await signIn(new TestBrowser(t.auth), "new@example.com")).status).toBe(403);
    const [event] = await auditEvents(t, { action: "user.create" });
    expect(event).toMatchObject({
      actorId: new ObjectId(admin.id),
      subjectId: stored!._id,
      details: { role: "admin" },
    });
  });

  it("without a password creates no credential account; without a role the user gets the default", async () => {
    const res = await admin.browser.post<{ user: { id: string; role: string } }>("/admin/create-user", {
      email: "plain@example.com",
      name: "Plain",
    });
    expect(res.status).toBe(200);
    expect(res.body.user.role).toBe("user");
    expect(await t.db.collection("accounts").countDocuments({ userId: new ObjectId(res.body.user.id) })).toBe(
      0,
    );
  });

  it("an existing email answers 422 User already exists and creates nothing", async () => {
    const res = await admin.browser.post("/admin/create-user", { email: "USER@example.com", name: "Dup" });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ code: "USER_ALREADY_EXISTS", message: "User already exists" });
    expect(await users().countDocuments({})).toBe(2);
  });

  it.each([
    [{ email: "x@example.com", name: "X", role: "superadmin" }, 400, "INVALID_ROLE"],
    [{ email: "x@example.com", name: "X", role: ["admin", "x"] }, 400, "INVALID_ROLE"],
    [{ email: "x@example.com", name: "X", password: "short" }, 400, "PASSWORD_TOO_SHORT"],
    [{ email: "x@example.com", name: "X", password: "p".repeat(129) }, 400, "PASSWORD_TOO_LONG"],
    [{ email: "not an email", name: "X" }, 400, "INVALID_EMAIL"],
    [{ email: "x@example.com", name: "X", data: { banned: true } }, 400, "VALIDATION_ERROR"],
    [{ email: "x@example.com", name: "X", emailVerified: true }, 400, "VALIDATION_ERROR"],
  ])("refuses %j with %i %s and creates nothing", async (body, status, code) => {
    const res = await admin.browser.post<{ code: string }>("/admin/create-user", body);
    expect(res.status).toBe(status);
    expect(res.body.code).toBe(code);
    expect(await users().countDocuments({})).toBe(2);
  });

  it("10 concurrent creations of one address: exactly one user and one account (docs/security.md)", async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        admin.browser.post("/admin/create-user", {
          email: i % 2 ? "Race@Example.com" : "race@example.com",
          name: "Race",
          password: PASSWORD,
        }),
      ),
    );
    expect(results.map((res) => res.status).sort()).toEqual([200, ...Array(9).fill(422)]);
    const created = await users().find({ email: "race@example.com" }).toArray();
    expect(created).toHaveLength(1);
    expect(await t.db.collection("accounts").countDocuments({ userId: created[0]!._id })).toBe(1);
    expect(await t.db.collection("accounts").countDocuments({})).toBe(3);
  });

  it("an admin allowed to create but not to set roles cannot create an admin (docs/security.md)", async () => {
    const limited = await createTestAuth({
      admin: { roles: { admin: { user: ["create"] }, user: {} } },
    });
    try {
      const creator = await signUpPerson(limited, "creator", "admin");
      const res = await creator.browser.post("/admin/create-user", {
        email: "x@example.com",
        name: "X",
        role: "admin",
      });
      expect(res.status).toBe(403);
      expect(await limited.db.collection("users").countDocuments({})).toBe(1);
      const plain = await creator.browser.post("/admin/create-user", { email: "x@example.com", name: "X" });
      expect(plain.status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe("update-user", () => {
  it("updates name, image, email (normalised) and emailVerified", async () => {
    const res = await admin.browser.post("/admin/update-user", {
      userId: user.id,
      data: { name: "Renamed", email: "Moved@Example.com", emailVerified: true, image: null },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: user.id,
      name: "Renamed",
      email: "moved@example.com",
      emailVerified: true,
    });
    expect(await userDoc(t, user.id)).toMatchObject({ name: "Renamed", email: "moved@example.com" });
  });

  it("refuses another user's email with 422 and changes nothing", async () => {
    const res = await admin.browser.post("/admin/update-user", {
      userId: user.id,
      data: { email: admin.email },
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ code: "USER_ALREADY_EXISTS", message: "User already exists" });
    expect((await userDoc(t, user.id))?.email).toBe(user.email);
  });

  it.each([
    [{ password: "new password!" }, "VALIDATION_ERROR"],
    [{ role: "admin" }, "VALIDATION_ERROR"],
    [{ banned: true }, "VALIDATION_ERROR"],
    [{ _id: "x" }, "VALIDATION_ERROR"],
    [{ name: { $set: "x" } }, "VALIDATION_ERROR"],
    [{}, "NO_FIELDS_TO_UPDATE"],
  ])("refuses guarded or empty data %j with 400 and changes nothing", async (data, code) => {
    const before = await userDoc(t, user.id);
    const res = await admin.browser.post<{ code: string }>("/admin/update-user", { userId: user.id, data });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(code);
    expect(await userDoc(t, user.id)).toEqual(before);
  });

  it("changing the email needs set-email besides update", async () => {
    const limited = await createTestAuth({ admin: { roles: { admin: { user: ["update"] }, user: {} } } });
    try {
      const editor = await signUpPerson(limited, "editor", "admin");
      const target = await signUpPerson(limited, "target");
      const email = await editor.browser.post("/admin/update-user", {
        userId: target.id,
        data: { email: "taken-over@example.com" },
      });
      expect(email.status).toBe(403);
      const verified = await editor.browser.post("/admin/update-user", {
        userId: target.id,
        data: { emailVerified: true },
      });
      expect(verified.status).toBe(403);
      expect(await limited.db.collection("users").findOne({ email: target.email })).toMatchObject({
        emailVerified: false,
      });
      const name = await editor.browser.post("/admin/update-user", {
        userId: target.id,
        data: { name: "Ok" },
      });
      expect(name.status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it("answers 404 for an unknown user", async () => {
    const res = await admin.browser.post("/admin/update-user", {
      userId: "000000000000000000000000",
      data: { name: "X" },
    });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(USER_NOT_FOUND);
  });
});

describe("set-role", () => {
  it("sets one role or several, and records from/to", async () => {
    const res = await admin.browser.post("/admin/set-role", { userId: user.id, role: ["admin", "user"] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ user: { id: user.id, role: "admin,user" } });
    expect((await userDoc(t, user.id))?.role).toBe("admin,user");
    const [event] = await auditEvents(t, { action: "user.set-role" });
    expect(event).toMatchObject({
      actorId: new ObjectId(admin.id),
      subjectId: new ObjectId(user.id),
      details: { from: "user", to: "admin,user" },
    });
    // The promoted user is an admin on the next request.
    expect((await user.browser.get("/admin/list-users")).status).toBe(200);
  });

  it.each([["superadmin"], [["admin", "x"]], [""], [[]], ["admin,user"]])(
    "refuses a role that is not configured (%j) with 400 (docs/security.md)",
    async (role) => {
      const res = await admin.browser.post<{ code: string }>("/admin/set-role", { userId: user.id, role });
      expect(res.status).toBe(400);
      expect((await userDoc(t, user.id))?.role).toBeUndefined();
      expect(await auditEvents(t)).toEqual([]);
    },
  );

  it("answers INVALID_ROLE with its message", async () => {
    const res = await admin.browser.post("/admin/set-role", { userId: user.id, role: "superadmin" });
    expect(res.body).toEqual({
      code: "INVALID_ROLE",
      message: "You are not allowed to set a non-existent role value",
    });
  });

  it("answers 404 for an unknown user", async () => {
    const res = await admin.browser.post("/admin/set-role", { userId: "nope", role: "admin" });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(USER_NOT_FOUND);
  });
});

describe("set-user-password", () => {
  it("sets the password (to be reset before it signs in), the old one no longer works; recorded", async () => {
    const res = await admin.browser.post("/admin/set-user-password", {
      userId: user.id,
      newPassword: "brand new secret",
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: true });
    expect((await signIn(new TestBrowser(t.auth), user.email, "brand new secret")).status).toBe(403);
    expect((await signIn(new TestBrowser(t.auth), user.email)).status).toBe(401);
    expect(await auditEvents(t, { action: "user.set-password" })).toHaveLength(1);
  });

  it("creates a credential account for a user without one", async () => {
    await t.db.collection("accounts").deleteMany({ userId: new ObjectId(user.id) });
    const res = await admin.browser.post("/admin/set-user-password", {
      userId: user.id,
      newPassword: "brand new secret",
    });
    expect(res.status).toBe(200);
    expect(await t.db.collection("accounts").countDocuments({ userId: new ObjectId(user.id) })).toBe(1);
  });

  it.each([
    ["short", "PASSWORD_TOO_SHORT", "Password too short"],
    ["p".repeat(129), "PASSWORD_TOO_LONG", "Password too long"],
  ])("refuses %s with 400 and keeps the old password", async (newPassword, code, message) => {
    const before = await t.db.collection("accounts").findOne({ userId: new ObjectId(user.id) });
    const res = await admin.browser.post("/admin/set-user-password", { userId: user.id, newPassword });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code, message });
    expect(await t.db.collection("accounts").findOne({ userId: new ObjectId(user.id) })).toEqual(before);
    expect(await auditEvents(t)).toEqual([]);
  });
});

describe("remove-user", () => {
  it("removes the user with their sessions and accounts, and records it", async () => {
    const id = new ObjectId(user.id);
    const res = await admin.browser.post("/admin/remove-user", { userId: user.id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(await users().countDocuments({ _id: id })).toBe(0);
    expect(await t.db.collection("sessions").countDocuments({ userId: id })).toBe(0);
    expect(await t.db.collection("accounts").countDocuments({ userId: id })).toBe(0);
    expect((await user.browser.get("/get-session")).body).toBeNull();
    const [event] = await auditEvents(t, { action: "user.remove" });
    expect(event).toMatchObject({
      actorId: new ObjectId(admin.id),
      subjectId: id,
      details: { email: user.email },
    });
  });

  it("6 concurrent removals of one user: one success and one audit event, nothing left behind", async () => {
    const id = new ObjectId(user.id);
    const results = await Promise.all(
      Array.from({ length: 6 }, () => admin.browser.post("/admin/remove-user", { userId: user.id })),
    );
    expect(results.map((res) => res.status).sort()).toEqual([200, 404, 404, 404, 404, 404]);
    expect(await users().countDocuments({ _id: id })).toBe(0);
    expect(await t.db.collection("sessions").countDocuments({ userId: id })).toBe(0);
    expect(await t.db.collection("accounts").countDocuments({ userId: id })).toBe(0);
    expect(await auditEvents(t, { action: "user.remove" })).toHaveLength(1);
  });

  it("an admin cannot remove themselves", async () => {
    const res = await admin.browser.post("/admin/remove-user", { userId: admin.id });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "CANNOT_REMOVE_YOURSELF", message: "You cannot remove yourself" });
    expect(await users().countDocuments({})).toBe(2);
  });

  it("answers 404 for an unknown user", async () => {
    const res = await admin.browser.post("/admin/remove-user", { userId: "000000000000000000000000" });
    expect(res.status).toBe(404);
    expect(await users().countDocuments({})).toBe(2);
  });
});

describe("has-permission", () => {
  it("answers for the caller", async () => {
    const yes = await admin.browser.post("/admin/has-permission", { permissions: { user: ["ban"] } });
    expect(yes.status).toBe(200);
    expect(yes.body).toEqual({ error: null, success: true });
    const no = await admin.browser.post("/admin/has-permission", {
      permissions: { user: ["impersonate-admins"] },
    });
    expect(no.body).toEqual({ error: null, success: false });
    const plain = await user.browser.post("/admin/has-permission", { permissions: { user: ["list"] } });
    expect(plain.body).toEqual({ error: null, success: false });
  });

  it("signed out: 401; asking about someone else over HTTP: 403", async () => {
    const anon = await new TestBrowser(t.auth).post("/admin/has-permission", {
      permissions: { user: ["list"] },
    });
    expect(anon.status).toBe(401);
    const other = await user.browser.post("/admin/has-permission", {
      permissions: { user: ["list"] },
      userId: admin.id,
    });
    expect(other.status).toBe(403);
    const role = await user.browser.post("/admin/has-permission", {
      permissions: { user: ["list"] },
      role: "admin",
    });
    expect(role.status).toBe(403);
  });

  it("server code may ask about a user or a role", async () => {
    const api = t.auth.api.userHasPermission!;
    const byUser = await api({ body: { permissions: { user: ["list"] }, userId: admin.id } });
    expect(byUser.data).toEqual({ error: null, success: true });
    const byRole = await api({ body: { permissions: { session: ["revoke"] }, role: "user" } });
    expect(byRole.data).toEqual({ error: null, success: false });
  });

  it.each([{}, { permissions: {} }, { permissions: { user: [] } }, { permissions: { user: "list" } }])(
    "refuses a malformed request %j with 400",
    async (body) => {
      const res = await admin.browser.post("/admin/has-permission", body);
      expect(res.status).toBe(400);
    },
  );
});
