import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { auditEvents, PASSWORD, sessionCount, signIn, signUpPerson, userDoc } from "#test/admin.ts";
import { addMember, createOrganization, signIn as signInVerified } from "#test/organization.ts";
import { useTestAuth } from "#test/test-auth.ts";
import { auditListAction } from "../../packages/cli/src/commands/audit.ts";
import { sessionsListAction, sessionsRevokeAction } from "../../packages/cli/src/commands/sessions.ts";
import {
  usersBanAction,
  usersCommand,
  usersCreateAction,
  usersGetAction,
  usersListAction,
  usersRemoveAction,
  usersRevokeSessionsAction,
  usersSetPasswordAction,
  usersSetRoleAction,
  usersUnbanAction,
} from "../../packages/cli/src/commands/users.ts";
import { EXIT, toKnownError } from "../../packages/cli/src/errors.ts";
import { testRun } from "./run-context.ts";

/**
 * The users, sessions and audit actions against the test database: each goes through the core's
 * admin endpoints as the operator `cli:tester`, so the admin area's rules hold and the audit trail
 * names the operator.
 */
const t = useTestAuth();
const run = () => testRun(t.db.databaseName);

async function failure(
  promise: Promise<unknown>,
): Promise<{ exitCode: number; code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    // What the top-level handler makes of it (main.ts): the exit code and the one-line message.
    const known = toKnownError(error);
    if (!known) throw error;
    return { exitCode: known.exitCode, code: known.code, message: known.message };
  }
  throw new Error("expected a failure");
}

describe("tessera users", () => {
  it("create, get (by email or id) and list with search, role filter and pagination", async () => {
    const created = await usersCreateAction(run(), "Grace@Example.com", {
      name: "Grace",
      role: "admin",
      password: PASSWORD,
    });
    expect(created.user).toMatchObject({
      email: "grace@example.com",
      name: "Grace",
      role: "admin",
      banned: false,
    });
    expect((await usersGetAction(run(), "grace@example.com")).user.id).toBe(created.user.id);
    expect((await usersGetAction(run(), created.user.id)).user.email).toBe("grace@example.com");
    await usersCreateAction(run(), "linus@example.com", {});

    const admins = await usersListAction(run(), { role: "admin" });
    expect(admins.users.map((user) => user.email)).toContain("grace@example.com");
    expect(admins.users.every((user) => user.role === "admin")).toBe(true);
    const search = await usersListAction(run(), { search: "linus" });
    expect(search.users.map((user) => user.email)).toEqual(["linus@example.com"]);
    const page = await usersListAction(run(), { limit: 1, offset: 1 });
    expect(page.users).toHaveLength(1);
    expect(page.total).toBeGreaterThanOrEqual(2);
    const all = await usersListAction(run(), { all: true });
    expect(all.users).toHaveLength(all.total);

    const [event] = await auditEvents(t, { action: "user.create", subjectId: new ObjectId(created.user.id) });
    expect(event).toMatchObject({ actor: "cli:tester", actorId: null, userAgent: "tessera-cli/0.1.0" });
  });

  it("create --language stores the user's language, a code or a BCP 47 tag of the eight; another language is a usage error", async () => {
    const created = await usersCreateAction(run(), "jan@example.com", { language: "POL" });
    expect(created.user.language).toBe("POL");
    expect((await userDoc(t, created.user.id))?.language).toBe("POL");
    const create = usersCommand.commands.find((command) => command.name() === "create")!;
    const option = create.options.find((entry) => entry.long === "--language")!;
    expect(option.parseArg?.("UKR", undefined)).toBe("UKR");
    expect(option.parseArg?.("pl", undefined)).toBe("POL");
    expect(option.parseArg?.("de-AT", undefined)).toBe("GERMAN");
    expect(() => option.parseArg?.("pt-BR", undefined)).toThrow(
      "--language must be one of ENG, RUS, UKR, SPA, GERMAN, POL, FRA, TURKEY or a tag of their languages (en, ru, uk, es, de, pl, fr, tr), got pt-BR",
    );
    // Past the CLI's own check (a caller of the action), the endpoint refuses it and stores nothing.
    expect(
      await failure(usersCreateAction(run(), "bad@example.com", { language: "pt-BR" as never })),
    ).toMatchObject({ code: "VALIDATION_ERROR", message: "Invalid request" });
    expect(await t.db.collection("users").findOne({ email: "bad@example.com" })).toBeNull();
  });

  it("an unknown user is exit 3; a duplicate email is refused (exit 4); a bad role is refused", async () => {
    expect(await failure(usersGetAction(run(), "nobody@example.com"))).toMatchObject({
      exitCode: EXIT.notFound,
    });
    expect(await failure(usersGetAction(run(), new ObjectId().toHexString()))).toMatchObject({
      exitCode: EXIT.notFound,
      code: "USER_NOT_FOUND",
    });
    await usersCreateAction(run(), "dup@example.com", {});
    expect(await failure(usersCreateAction(run(), "dup@example.com", {}))).toMatchObject({
      exitCode: EXIT.refused,
    });
    expect((await failure(usersSetRoleAction(run(), "dup@example.com", "emperor"))).exitCode).toBeGreaterThan(
      1,
    );
  });

  it("ban without --yes and without a terminal is refused (exit 2) and changes nothing", async () => {
    const person = await signUpPerson(t, "careful");
    expect(await failure(usersBanAction(run(), person.email, {}))).toMatchObject({ exitCode: EXIT.usage });
    expect((await userDoc(t, person.id))?.banned).toBeUndefined();
  });

  it("ban ends every session at once and sign-in is refused; unban lets them in again; both audited as cli:tester", async () => {
    const person = await signUpPerson(t, "mallory");
    await signIn(person.browser, person.email);
    expect(await sessionCount(t, person.id)).toBe(2);
    const banned = await usersBanAction(run(), person.email, { yes: true, reason: "spam", expiresIn: 3600 });
    expect(banned.user).toMatchObject({ banned: true, banReason: "spam" });
    expect(await sessionCount(t, person.id)).toBe(0);
    expect((await signIn(person.browser, person.email)).status).toBe(403);

    await usersUnbanAction(run(), person.id);
    expect((await signIn(person.browser, person.email)).status).toBe(200);
    const events = await auditEvents(t, { subjectId: new ObjectId(person.id) });
    expect(events.map((event) => [event.action, event.actor, event.reason])).toEqual([
      ["user.ban", "cli:tester", "spam"],
      ["user.unban", "cli:tester", null],
    ]);
  });

  it("set-role, set-password (sessions end; the password must be changed) and revoke-sessions", async () => {
    const person = await signUpPerson(t, "trent");
    expect((await usersSetRoleAction(run(), person.email, "admin")).user.role).toBe("admin");
    expect(await sessionCount(t, person.id)).toBe(1);
    await usersSetPasswordAction(run(), person.email, { password: "another long password 42", yes: true });
    expect(await sessionCount(t, person.id)).toBe(0);
    expect((await signIn(person.browser, person.email, "another long password 42")).status).not.toBe(200);

    await signIn(person.browser, person.email).catch(() => {});
    const other = await signUpPerson(t, "victor");
    await signIn(other.browser, other.email);
    const listed = await sessionsListAction(run(), other.email);
    expect(listed.sessions).toHaveLength(2);
    await sessionsRevokeAction(run(), listed.sessions[0]!.id, { yes: true });
    expect(await sessionCount(t, other.id)).toBe(1);
    await usersRevokeSessionsAction(run(), other.id, { yes: true });
    expect(await sessionCount(t, other.id)).toBe(0);
  });

  it("remove deletes the user, but not the only owner of an organization with other members (exit 4, the user stays)", async () => {
    const owner = await signInVerified(t, "sole-owner");
    const organizationId = await createOrganization(owner, "sole-org");
    await addMember(t, organizationId, await signInVerified(t, "staying-member"), "member");
    const refused = await failure(usersRemoveAction(run(), owner.email, { yes: true }));
    expect(refused.exitCode).toBe(EXIT.refused);
    expect(await userDoc(t, owner.userId)).not.toBeNull();

    const person = await signUpPerson(t, "leaving");
    expect(await usersRemoveAction(run(), person.email, { yes: true })).toEqual({
      success: true,
      userId: person.id,
    });
    expect(await userDoc(t, person.id)).toBeNull();
    expect(await failure(usersGetAction(run(), person.email))).toMatchObject({ exitCode: EXIT.notFound });
  });

  it("audit list shows the operator's events, by subject, newest first", async () => {
    const person = await signUpPerson(t, "audited");
    await usersSetRoleAction(run(), person.email, "admin");
    await usersSetRoleAction(run(), person.email, "user");
    const listed = await auditListAction(run(), { subject: person.email });
    expect(listed.total).toBe(2);
    expect(listed.events.map((event) => [event.action, event.actor, event.details])).toEqual([
      ["user.set-role", "cli:tester", expect.objectContaining({})],
      ["user.set-role", "cli:tester", expect.objectContaining({})],
    ]);
  });
});
