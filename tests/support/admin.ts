import { ObjectId } from "mongodb";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { ADMIN_STATEMENTS } from "../../packages/auth-core/src/config/admin-roles.ts";
import { DEFAULT_ADMIN_ROLES, type RoleSet } from "../../packages/auth-core/src/features/admin/access.ts";
import { type SignedUpUser, signUpUser, TestBrowser } from "./browser.ts";
import { type Clock, createTestAuth, type Overrides, standIn, type TestAuth } from "./test-auth.ts";

export const PASSWORD = "correct horse battery";

export type Person = SignedUpUser;

/** Signs up (and in) a user; with `role`, stores that admin-area role directly in the database. */
export function signUpPerson(t: TestAuth, name: string, role?: string): Promise<Person> {
  return signUpUser(t, { email: `${name}@example.com`, name, password: PASSWORD, ...(role ? { role } : {}) });
}

/** An admin, an ordinary user and a signed-out browser: the three callers of every admin endpoint. */
export async function createCast(t: TestAuth): Promise<{ admin: Person; user: Person; anon: TestBrowser }> {
  const admin = await signUpPerson(t, "admin", "admin");
  const user = await signUpPerson(t, "user");
  return { admin, user, anon: new TestBrowser(t.auth) };
}

export interface AdminCast {
  t: TestAuth;
  admin: Person;
  user: Person;
  /** A signed-out browser. */
  anon: TestBrowser;
  /**
   * Opens another auth and cast for the rest of this test (the current one is closed): the
   * fixture's `overrides` with `overrides` laid over them (top-level keys replace).
   */
  setUp(overrides?: Overrides): Promise<void>;
}

/**
 * The admin area's fixture: an auth on its own database and its cast — an admin, a user, a
 * signed-out browser, and the people of `also` (name → admin-area role, null for none), signed up
 * in that order. `overrides` may be a function, read when the auth opens (options that name a test
 * server started by another fixture). `open` says when: "each-test" (the default) a fresh one
 * before every test, "once" one for the whole file, "by-set-up" only when a test calls
 * `setUp(overrides)` (tests that each need other options). Each is closed after its test (or
 * file). The returned values stand for the instances open at the time they are used.
 */
export function useAdminCast<Also extends string = never>(
  options: {
    overrides?: Overrides | (() => Overrides);
    clock?: Clock;
    open?: "each-test" | "once" | "by-set-up";
    also?: Record<Also, string | null>;
  } = {},
): AdminCast & Record<Also, Person> {
  type Cast = { t: TestAuth; admin: Person; user: Person; anon: TestBrowser; also: Record<string, Person> };
  let current: Cast | undefined;
  const close = async () => {
    const closing = current;
    current = undefined;
    await closing?.t.close();
  };
  const base = () =>
    typeof options.overrides === "function" ? options.overrides() : (options.overrides ?? {});
  const setUp = async (overrides: Overrides = {}) => {
    await close();
    const t = await createTestAuth({ ...base(), ...overrides }, options.clock);
    const cast = await createCast(t);
    const also: Record<string, Person> = {};
    for (const [name, role] of Object.entries<string | null>(options.also ?? {}))
      also[name] = await signUpPerson(t, name, role ?? undefined);
    current = { t, ...cast, also };
  };
  const open = options.open ?? "each-test";
  if (open === "once") {
    beforeAll(() => setUp());
    afterAll(close);
  } else {
    if (open === "each-test") beforeEach(() => setUp());
    afterEach(close);
  }
  const unopened = "useAdminCast: the cast is opened in a hook (or by setUp); use it in a test";
  const people = Object.fromEntries(
    Object.keys(options.also ?? {}).map((name) => [name, standIn(() => current?.also[name], unopened)]),
  ) as Record<Also, Person>;
  return {
    ...people,
    t: standIn(() => current?.t, unopened),
    admin: standIn(() => current?.admin, unopened),
    user: standIn(() => current?.user, unopened),
    anon: standIn(() => current?.anon, unopened),
    setUp,
  };
}

export function userDoc(t: TestAuth, id: string) {
  return t.db.collection("users").findOne({ _id: new ObjectId(id) });
}

export function sessionCount(t: TestAuth, id: string): Promise<number> {
  return t.db.collection("sessions").countDocuments({ userId: new ObjectId(id) });
}

export function auditEvents(t: TestAuth, filter: Record<string, unknown> = {}) {
  return t.db.collection("auditEvents").find(filter).sort({ createdAt: 1, _id: 1 }).toArray();
}

export async function signIn(browser: TestBrowser, email: string, password = PASSWORD) {
  return browser.post<{ token: string }>("/sign-in/email", { email, password });
}

export const FORBIDDEN = { code: "RESOURCE_ACCESS_NOT_ALLOWED", message: "not allowed to access resource" };
export const UNAUTHORIZED = { code: "UNAUTHORIZED", message: "unauthorized" };
export const USER_NOT_FOUND = { code: "USER_NOT_FOUND", message: "User not found" };
export const BANNED = {
  code: "BANNED_USER",
  message:
    "You have been banned from this application. Please contact support if you believe this is an error.",
};

/** The default roles plus "superadmin", which holds every admin-area action (manage-admins too). */
export const SUPER_ROLES = mutableRoles({ ...DEFAULT_ADMIN_ROLES, superadmin: ADMIN_STATEMENTS });

/** A role set as the options' input type takes it (mutable arrays). */
export function mutableRoles(roles: RoleSet): Record<string, Record<string, string[]>> {
  return Object.fromEntries(
    Object.entries(roles).map(([name, role]) => [
      name,
      Object.fromEntries(Object.entries(role).map(([resource, actions]) => [resource, [...actions]])),
    ]),
  );
}
