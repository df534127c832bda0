import type { AuthOptions } from "@tessera/auth-core";
import { ObjectId } from "mongodb";
import { expect } from "vitest";
import { signUpUser, type TestBrowser } from "./browser.ts";
import { closeAfterEach, createTestAuth, type TestAuth } from "./test-auth.ts";

export type Overrides = Omit<Partial<AuthOptions>, "database">;

export interface SignedIn {
  browser: TestBrowser;
  userId: string;
  email: string;
}

/** Signs up (and so in) a user with a verified email (invitations need one by default). */
export async function signIn(t: TestAuth, name: string): Promise<SignedIn> {
  const { browser, id, email } = await signUpUser(t, {
    email: `${name}@example.com`,
    name,
    emailVerified: true,
  });
  return { browser, userId: id, email };
}

export async function createOrganization(user: SignedIn, slug: string, name = slug): Promise<string> {
  const res = await user.browser.post<{ id: string }>("/organization/create", { name, slug });
  expect(res.status).toBe(200);
  return res.body.id;
}

/** Adds a member through the server-only API (no permission check). Returns the member id. */
export async function addMember(
  t: TestAuth,
  organizationId: string,
  user: SignedIn,
  role: string,
): Promise<string> {
  const { data } = await t.auth.api.addMember({ body: { organizationId, userId: user.userId, role } });
  return (data as { id: string }).id;
}

export function errorBody(code: string, message: string) {
  return { code, message };
}

/**
 * docs/security.md I fixture: org A {owner O, admin D, member M}, org B {owner P, member Q}, outsider X.
 * Each member's session has their organization active.
 */
export interface Fixture {
  t: TestAuth;
  O: SignedIn;
  D: SignedIn;
  M: SignedIn;
  P: SignedIn;
  Q: SignedIn;
  X: SignedIn;
  A: string;
  B: string;
  members: { O: string; D: string; M: string; P: string; Q: string };
}

export async function createFixture(overrides: Overrides = {}): Promise<Fixture> {
  const t = await createTestAuth(overrides);
  const [O, D, M, P, Q, X] = await Promise.all(
    ["owner-o", "admin-d", "member-m", "owner-p", "member-q", "outsider-x"].map((name) => signIn(t, name)),
  );
  const A = await createOrganization(O!, "org-a");
  const B = await createOrganization(P!, "org-b");
  const ownerOf = async (org: string) =>
    (await t.db.collection("members").findOne({ organizationId: new ObjectId(org) }))!._id.toHexString();
  const members = {
    O: await ownerOf(A),
    P: await ownerOf(B),
    D: await addMember(t, A, D!, "admin"),
    M: await addMember(t, A, M!, "member"),
    Q: await addMember(t, B, Q!, "member"),
  };
  // Every member works in their organization (the creators' is already active).
  await D!.browser.post("/organization/set-active", { organizationId: A });
  await M!.browser.post("/organization/set-active", { organizationId: A });
  await Q!.browser.post("/organization/set-active", { organizationId: B });
  return { t, O: O!, D: D!, M: M!, P: P!, Q: Q!, X: X!, A, B, members };
}

/** Members of an organization as { userId: role }, read straight from the database. */
export async function memberRoles(t: TestAuth, organizationId: string): Promise<Record<string, string>> {
  const rows = await t.db
    .collection("members")
    .find({ organizationId: new ObjectId(organizationId) })
    .toArray();
  return Object.fromEntries(rows.map((row) => [String(row.userId), String(row.role)]));
}

export async function activeOrganizationOf(t: TestAuth, userId: string): Promise<(string | null)[]> {
  const rows = await t.db
    .collection("sessions")
    .find({ userId: new ObjectId(userId) })
    .toArray();
  return rows.map((row) => (row.activeOrganizationId as string | null) ?? null);
}

/**
 * A fixture factory for a test file: every fixture it makes is closed after its test. `defaults`
 * are the overrides when a test passes none.
 */
export function useFixtures(defaults: Overrides = {}): (overrides?: Overrides) => Promise<Fixture> {
  const track = closeAfterEach<TestAuth>();
  return async (overrides = defaults) => {
    const f = await createFixture(overrides);
    track(f.t);
    return f;
  };
}

type Write = (...args: never[]) => Promise<unknown>;

/**
 * Runs `before` once, just before the next `method` call on `collection` reaches the database:
 * forces the interleaving a race test needs (a deletion winning just ahead of the racing request's
 * write), which Promise.all would hit only sometimes.
 */
export function beforeNextWrite(
  f: Fixture,
  collection: "members" | "teams" | "invitations" | "teamMembers" | "users",
  method: "insertOne" | "deleteOne",
  before: () => Promise<unknown>,
): void {
  const target = f.t.auth.context.collections[collection] as unknown as Record<typeof method, Write>;
  const original = target[method].bind(target);
  target[method] = async (...args: never[]) => {
    target[method] = original;
    await before();
    return original(...args);
  };
}

/** beforeNextWrite of the next insert into `collection`. */
export function beforeNextInsert(
  f: Fixture,
  collection: "members" | "teams" | "invitations" | "teamMembers",
  before: () => Promise<unknown>,
): void {
  beforeNextWrite(f, collection, "insertOne", before);
}
