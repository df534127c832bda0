import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { createCast, FORBIDDEN, type Person, signUpPerson } from "#test/admin.ts";
import { type Overrides, type TestAuth, useFreshTestAuth } from "#test/test-auth.ts";
import { ListingCache, type UsersListing } from "../../db/listing-cache.ts";

/**
 * Admin list-users' page cache (db/listing-cache.ts, db/listing-version.ts): a page is served again
 * only while the users' listing version is the one it was read under, so every write to a user
 * shows on the very next read; the admin's session, user and role are read from the database every
 * time.
 */
const freshTestAuth = useFreshTestAuth();

interface Listed {
  users: { id: string; email: string; name: string; role: string; banned: boolean; emailVerified: boolean }[];
  total: number;
}

const SESSION_READ = ["find:sessions", "find:users"];

async function cast(overrides: Overrides = {}): Promise<{ t: TestAuth; admin: Person; user: Person }> {
  const t = await freshTestAuth({
    // An address that moves at once (Better Auth's change-email flow) is one of the writes shown.
    user: { deleteUser: { enabled: true }, changeEmail: { enabled: true, verifyNewEmailFirst: false } },
    ...overrides,
  });
  const { admin, user } = await createCast(t);
  return { t, admin, user };
}

async function list(admin: Person, query = ""): Promise<Listed> {
  const answer = await admin.browser.get<Listed>(`/admin/list-users${query}`);
  expect(answer.status).toBe(200);
  return answer.body;
}

/** Lists twice (the second from the page held), runs `change`, and returns the next list. */
async function afterChange(
  f: { t: TestAuth; admin: Person },
  change: () => Promise<{ status: number } | unknown>,
  query = "",
): Promise<Listed> {
  await list(f.admin, query);
  const held = await f.t.commands(() => list(f.admin, query));
  expect(held).toEqual([...SESSION_READ, "find:listingVersions"]); // held, not read
  const changed = await change();
  if (changed && typeof changed === "object" && "status" in changed) expect(changed.status).toBe(200);
  return list(f.admin, query);
}

const byEmail = (listed: Listed, email: string) => listed.users.find((user) => user.email === email);

describe("admin list-users' page cache", () => {
  it("serves the same bytes from the page held, reading the session and the version only", async () => {
    const { t, admin } = await cast();
    const first = await admin.browser.get("/admin/list-users?limit=10");
    const firstText = await first.response.text();
    const commands = await t.commands(async () => {
      const again = await admin.browser.get("/admin/list-users?limit=10");
      expect(await again.response.text()).toBe(firstText);
    });
    expect(commands).toEqual([...SESSION_READ, "find:listingVersions"]);
    // The server API gets the same objects either way, Date fields as Dates.
    const headers = new Headers({ cookie: admin.browser.cookieHeader() });
    const { data } = await t.auth.api.listUsers({ headers, query: { limit: 10 } });
    expect(JSON.stringify(data)).toBe(firstText);
    expect((data as { users: { createdAt: unknown }[] }).users[0]?.createdAt).toBeInstanceOf(Date);
  });

  it("holds each query apart: another page, order, search or filter is read, then held too", async () => {
    const { t, admin } = await cast();
    for (const name of ["cora", "dan", "eve"]) await signUpPerson(t, name);
    const newest = ["eve", "dan", "cora", "user", "admin"].map((name) => `${name}@example.com`);
    // Each query's first answer is checked against what it must be, so a query answered from
    // another query's page (a key missing a field) fails here.
    const expected: [string, string[]][] = [
      ["", newest],
      ["?limit=2", newest.slice(0, 2)],
      ["?limit=2&offset=2", newest.slice(2, 4)],
      ["?sortDirection=asc", [...newest].reverse()],
      ["?sortBy=email&sortDirection=asc", [...newest].sort()],
      ["?searchValue=da", ["dan@example.com"]],
      ["?searchValue=example", newest],
      ["?searchField=name&searchValue=example", []],
      ["?searchField=name&searchValue=or", ["cora@example.com"]],
      ["?searchField=email&searchOperator=starts_with&searchValue=e", ["eve@example.com"]],
      ["?searchField=email&searchOperator=contains&searchValue=e", newest],
      [
        "?searchField=email&searchOperator=ends_with&searchValue=n%40example.com",
        ["admin@example.com", "dan@example.com"].reverse(),
      ],
      ["?filterField=role&filterValue=admin", ["admin@example.com"]],
      ["?filterField=role&filterValue=user", newest.slice(0, 4)],
      ["?filterField=role&filterValue=admin&filterOperator=ne", newest.slice(0, 4)],
    ];
    for (const [query, emails] of expected) {
      expect(
        (await list(admin, query)).users.map((u) => u.email),
        query,
      ).toEqual(emails);
    }
    for (const [query, emails] of expected) {
      const commands = await t.commands(async () =>
        expect(
          (await list(admin, query)).users.map((u) => u.email),
          query,
        ).toEqual(emails),
      );
      expect(commands, query).toEqual([...SESSION_READ, "find:listingVersions"]);
    }
  });

  it("cleanup's timeline repair bumps the version: the next page is read again", async () => {
    const { t, admin, user } = await cast();
    await list(admin);
    // A timeline entry gone (a crash between the user's delete and its entry's): cleanup enters it.
    await t.db.collection("userTimeline").deleteOne({ userId: new ObjectId(user.id) });
    expect(await t.commands(() => list(admin))).toEqual([...SESSION_READ, "find:listingVersions"]);
    await t.auth.cleanup();
    const commands = await t.commands(() => list(admin));
    expect(commands.slice(0, 3)).toEqual([...SESSION_READ, "find:listingVersions"]);
    expect(commands.length).toBeGreaterThan(3);
  });

  it("shows each kind of write to a user on the next read", async () => {
    const f = await cast();
    const { t, admin, user } = f;
    let newcomer: Person | undefined;
    let listed = await afterChange(f, async () => {
      newcomer = await signUpPerson(t, "newcomer");
    });
    expect(listed.total).toBe(3);
    expect(byEmail(listed, "newcomer@example.com")).toBeDefined();

    listed = await afterChange(f, () => user.browser.post("/update-user", { name: "Renamed" }));
    expect(byEmail(listed, "user@example.com")?.name).toBe("Renamed");

    listed = await afterChange(f, () => admin.browser.post("/admin/ban-user", { userId: user.id }));
    expect(byEmail(listed, "user@example.com")?.banned).toBe(true);

    listed = await afterChange(f, () => admin.browser.post("/admin/unban-user", { userId: user.id }));
    expect(byEmail(listed, "user@example.com")?.banned).toBe(false);

    listed = await afterChange(f, () =>
      admin.browser.post("/admin/update-user", { userId: user.id, data: { email: "moved@example.com" } }),
    );
    expect(byEmail(listed, "moved@example.com")).toBeDefined();
    expect(byEmail(listed, "user@example.com")).toBeUndefined();

    // An unverified address moves at once (the verification store's write).
    const mover = await signUpPerson(t, "mover");
    listed = await afterChange(f, () =>
      mover.browser.post("/change-email", { newEmail: "moved-again@example.com" }),
    );
    expect(byEmail(listed, "moved-again@example.com")).toBeDefined();

    listed = await afterChange(f, () =>
      admin.browser.post("/admin/create-user", { email: "made@example.com", name: "Made" }),
    );
    expect(byEmail(listed, "made@example.com")).toBeDefined();

    listed = await afterChange(f, () => mover.browser.post("/delete-user", {}));
    expect(byEmail(listed, "moved-again@example.com")).toBeUndefined();

    listed = await afterChange(f, () => admin.browser.post("/admin/remove-user", { userId: user.id }));
    expect(byEmail(listed, "moved@example.com")).toBeUndefined();
    expect(listed.total).toBe(3);

    listed = await afterChange(f, () =>
      admin.browser.post("/admin/set-role", { userId: newcomer?.id, role: "admin" }),
    );
    expect(byEmail(listed, "newcomer@example.com")?.role).toBe("admin");
  });

  it("an address-prefix search shows a move into the prefix on the next read", async () => {
    const f = await cast();
    const query = "?searchField=email&searchOperator=starts_with&searchValue=zed";
    const listed = await afterChange(
      f,
      () =>
        f.admin.browser.post("/admin/update-user", { userId: f.user.id, data: { email: "zed@example.com" } }),
      query,
    );
    expect(listed.users.map((u) => u.email)).toEqual(["zed@example.com"]);
  });

  it("reads the admin's role every time: a role taken away without a version bump refuses at once", async () => {
    const { t, admin } = await cast();
    await list(admin);
    await list(admin);
    // A write straight into the database: no bump, yet the next request is refused.
    await t.db.collection("users").updateOne({ _id: new ObjectId(admin.id) }, { $set: { role: "user" } });
    const refused = await admin.browser.get("/admin/list-users");
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject(FORBIDDEN);
  });

  it("serves a page for at most maxAgeSeconds: a write that did not bump shows once it is that old", async () => {
    // Two seconds: the read after the write must come within the age even on a busy machine.
    const { t, admin, user } = await cast({ admin: { listingCache: { maxAgeSeconds: 2 } } });
    await list(admin);
    await t.db.collection("users").updateOne({ _id: new ObjectId(user.id) }, { $set: { name: "Quiet" } });
    expect(byEmail(await list(admin), "user@example.com")?.name).toBe("user");
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect(byEmail(await list(admin), "user@example.com")?.name).toBe("Quiet");
  });

  it("with listingCache false, every request reads the users", async () => {
    const { t, admin } = await cast({ admin: { listingCache: false } });
    await list(admin);
    const commands = await t.commands(() => list(admin));
    expect(commands).not.toContain("find:listingVersions");
    expect(commands.filter((c) => c === "find:users").length).toBeGreaterThan(1);
  });

  it("holds pages within maxBytes by their bytes, the least recently used out first", () => {
    let now = 0;
    const cache = new ListingCache<UsersListing>(3_000, 1_000, () => now);
    const page = (text: string): UsersListing => ({
      text: text.padEnd(500, "."),
      users: Buffer.alloc(0),
      total: 0,
    });
    for (const key of ["a", "b", "c"]) cache.set(key, 1, page(key), 1_000);
    expect(cache.size).toEqual({ listings: 3, bytes: 3_000 });
    expect(cache.get("a", 1)).not.toBeNull();
    cache.set("d", 1, page("d"), 1_000); // b goes: a was used since
    expect(cache.get("b", 1)).toBeNull();
    expect(cache.get("a", 2)).toBeNull(); // another version: dropped
    expect(cache.size).toEqual({ listings: 2, bytes: 2_000 });
    cache.set("e", 1, page("e"), 3_001); // larger than the whole budget: not held
    expect(cache.get("e", 1)).toBeNull();
    now = 1_001;
    expect(cache.get("c", 1)).toBeNull();
  });
});
