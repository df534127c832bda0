import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { ObjectId } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionCount, userDoc } from "#test/admin.ts";
import { addMember, createOrganization, memberRoles, signIn } from "#test/organization.ts";
import { useTestAuth } from "#test/test-auth.ts";
import {
  orgsAddMemberAction,
  orgsDeleteAction,
  orgsRemoveMemberAction,
  orgsSetRoleAction,
} from "../../packages/cli/src/commands/orgs.ts";
import { sessionsRevokeAction } from "../../packages/cli/src/commands/sessions.ts";
import {
  usersBanAction,
  usersRemoveAction,
  usersRevokeSessionsAction,
} from "../../packages/cli/src/commands/users.ts";
import { toKnownError } from "../../packages/cli/src/errors.ts";
import { testRun } from "./run-context.ts";

/**
 * Destructive commands look up what they affect before asking: the question names it, and what does
 * not exist is exit 3 without a question. Organization roles come from the core's role table.
 */
const t = useTestAuth({ organization: { roles: { billing: { invitation: ["create"] } } } });
let dir: string;
let config: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tessera-confirm-"));
  config = join(dir, "tessera.config.ts");
  await writeFile(
    config,
    `const roles: Record<string, Record<string, string[]>> = { billing: { invitation: ["create"] } };
export default { organization: { roles } };
`,
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A terminal whose keys are typed after `delay` ms (none: the question would wait forever). */
function terminal(keys?: string) {
  const stdin = new PassThrough();
  const run = testRun(t.db.databaseName, { interactive: true, stdin });
  run.connection.config = config;
  if (keys !== undefined) {
    // Typed once the question is on screen.
    const timer = setInterval(() => {
      if (run.stderr().includes("?")) {
        clearInterval(timer);
        stdin.write(keys);
      }
    }, 20);
  }
  return run;
}

/** Terminal control sequences: colours, cursor moves. */
const CONTROL = new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[A-Za-z]`, "g");

/** What the terminal showed, as one line: control sequences and clack's wrapping removed. */
function shown(run: { stderr(): string }): string {
  return run
    .stderr()
    .replace(CONTROL, "")
    .split("\n")
    .map((line) => line.replace(/^[│◆◇└]\s*/, "").trim())
    .join(" ")
    .replace(/\s+/g, " ");
}

async function outcomeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "ok";
  } catch (error) {
    const known = toKnownError(error);
    if (!known) throw error;
    return `${known.exitCode} ${known.code}: ${known.message}`;
  }
}

describe("destructive commands ask after the lookup", () => {
  it("an unknown user, session, organization or membership is exit 3, and nothing is asked", async () => {
    const owner = await signIn(t, "ask-owner");
    const outsider = await signIn(t, "ask-outsider");
    await createOrganization(owner, "ask-org");
    const missingId = new ObjectId().toHexString();
    type Run = ReturnType<typeof terminal>;
    const checks: [(ask: Run) => Promise<unknown>, string][] = [
      [
        (ask) => usersBanAction(ask, "ghost@example.com", {}),
        "3 USER_NOT_FOUND: no user with the email ghost@example.com",
      ],
      [(ask) => usersRemoveAction(ask, missingId, {}), "3 USER_NOT_FOUND: User not found"],
      [
        (ask) => usersRevokeSessionsAction(ask, "ghost@example.com", {}),
        "3 USER_NOT_FOUND: no user with the email ghost@example.com",
      ],
      [(ask) => sessionsRevokeAction(ask, missingId, {}), `3 SESSION_NOT_FOUND: no session ${missingId}`],
      [
        (ask) => orgsDeleteAction(ask, "no-such-org", {}),
        '3 ORGANIZATION_NOT_FOUND: no organization with the id or slug "no-such-org" (`tessera orgs list` lists them)',
      ],
      [
        (ask) => orgsRemoveMemberAction(ask, "ask-org", outsider.email, {}),
        `3 MEMBER_NOT_FOUND: ${outsider.email} is not a member of ask-org`,
      ],
      [
        (ask) => orgsRemoveMemberAction(ask, "ask-org", "ghost@example.com", {}),
        "3 USER_NOT_FOUND: no user with the email ghost@example.com",
      ],
    ];
    for (const [check, expected] of checks) {
      const run = terminal();
      expect(await outcomeOf(check(run))).toBe(expected);
      expect(run.stderr()).toBe("");
    }
  });

  it("the question names the user; a yes bans them and ends their sessions", async () => {
    const eve = await signIn(t, "ask-eve");
    expect(await sessionCount(t, eve.userId)).toBe(1);
    const run = terminal("y");
    expect(await outcomeOf(usersBanAction(run, eve.email, { reason: "spam" }))).toBe("ok");
    expect(shown(run)).toContain(
      `Ban ask-eve <${eve.email}> (${eve.userId}, role user) and end every session of theirs?`,
    );
    expect((await userDoc(t, eve.userId))?.banned).toBe(true);
    expect(await sessionCount(t, eve.userId)).toBe(0);
  });

  it("revoking a session names its user; deleting an organization names it with its counts, and a no changes nothing", async () => {
    const sam = await signIn(t, "ask-sam");
    const session = await t.db.collection("sessions").findOne({ userId: new ObjectId(sam.userId) });
    const revoke = terminal("n");
    expect(await outcomeOf(sessionsRevokeAction(revoke, session!._id.toHexString(), {}))).toBe(
      "1 CANCELLED: cancelled",
    );
    expect(shown(revoke)).toContain(
      `End the session ${session!._id.toHexString()} of ask-sam <${sam.email}>`,
    );
    expect(await sessionCount(t, sam.userId)).toBe(1);

    const owner = await signIn(t, "ask-doomed-owner");
    const id = await createOrganization(owner, "ask-doomed", "Doomed");
    await addMember(t, id, sam, "member");
    const remove = terminal("n");
    expect(await outcomeOf(orgsDeleteAction(remove, "ask-doomed", {}))).toBe("1 CANCELLED: cancelled");
    expect(shown(remove)).toContain(
      `Delete Doomed (ask-doomed, ${id}) with its 2 members, 0 pending invitations and teams?`,
    );
    expect(await t.db.collection("organizations").countDocuments({ _id: new ObjectId(id) })).toBe(1);

    const leave = terminal("y");
    expect(await outcomeOf(orgsRemoveMemberAction(leave, "ask-doomed", sam.email, {}))).toBe("ok");
    expect(shown(leave)).toContain(
      `Remove ask-sam <${sam.email}> (${sam.userId}, role user), member of Doomed (ask-doomed), from the organization?`,
    );
    expect(await memberRoles(t, id)).toEqual({ [owner.userId]: "owner" });
  });
});

describe("organization roles come from the core's role table", () => {
  it("a role of organization.roles (--config) is accepted; an unknown one is exit 3 naming the roles there are", async () => {
    const owner = await signIn(t, "role-owner");
    const bea = await signIn(t, "role-bea");
    const id = await createOrganization(owner, "role-org");
    const run = () => {
      const captured = testRun(t.db.databaseName);
      captured.connection.config = config;
      return captured;
    };
    expect(await orgsAddMemberAction(run(), "role-org", bea.email, { role: "billing" })).toMatchObject({
      role: "billing",
    });
    expect(await outcomeOf(orgsSetRoleAction(run(), "role-org", bea.email, "billing,emperor"))).toBe(
      "3 MEMBER_ROLE_NOT_FOUND: unknown role emperor (roles: owner, admin, member, billing)",
    );
    expect(await outcomeOf(orgsAddMemberAction(run(), "role-org", owner.email, { role: "czar" }))).toBe(
      "3 MEMBER_ROLE_NOT_FOUND: unknown role czar (roles: owner, admin, member, billing)",
    );
    await orgsSetRoleAction(run(), "role-org", bea.email, "admin,billing");
    expect(await memberRoles(t, id)).toEqual({ [owner.userId]: "owner", [bea.userId]: "admin,billing" });
  });
});
