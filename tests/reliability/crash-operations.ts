import { type Db, ObjectId } from "mongodb";
import type { Answer, HttpTarget } from "./harness/http-client.ts";
import { Person } from "./harness/http-client.ts";

/**
 * The multi-write operations of "Crash in the middle", each with what it needs set up
 * first, the request that is interrupted, the half-done states the invariant checker of `tessera
 * doctor` does not see (checked here), and the request a person would send next.
 */
export interface Prepared {
  /** Sends the operation's request. */
  run(): Promise<Answer>;
  /** Descriptions of half-done states of this operation ([] when none). */
  halfDone(db: Db): Promise<string[]>;
  /** What the person does next after an error: usually the same request again. */
  retry(): Promise<Answer>;
}

export interface CrashOperation {
  name: string;
  prepare(target: HttpTarget, serial: string): Promise<Prepared>;
}

const PASSWORD = "reliability-password-1";

async function signUp(target: HttpTarget, email: string): Promise<{ person: Person; userId: string }> {
  const person = new Person(target);
  const answer = await person.post("/sign-up/email", {
    name: email.split("@")[0],
    email,
    password: PASSWORD,
  });
  expectOk(answer, `sign-up ${email}`);
  return { person, userId: (answer.body as { user: { id: string } }).user.id };
}

function expectOk(answer: Answer, what: string): void {
  if (answer.status !== 200)
    throw new Error(`${what} answered ${answer.status} ${answer.error ?? JSON.stringify(answer.body)}`);
}

/** An owner with an organization, and a member who joined it by invitation (their session has it active). */
async function organizationWithMember(target: HttpTarget, serial: string) {
  const owner = await signUp(target, `owner-${serial}@example.com`);
  const created = await owner.person.post("/organization/create", { name: serial, slug: `org-${serial}` });
  expectOk(created, "organization create");
  const organizationId = (created.body as { id: string }).id;
  const memberEmail = `member-${serial}@example.com`;
  const member = await signUp(target, memberEmail);
  const invitationId = await invite(owner.person, organizationId, memberEmail);
  expectOk(await member.person.post("/organization/accept-invitation", { invitationId }), "accept");
  return { owner, member, memberEmail, organizationId };
}

async function invite(inviter: Person, organizationId: string, email: string): Promise<string> {
  const answer = await inviter.post("/organization/invite-member", { email, role: "member", organizationId });
  expectOk(answer, `invite ${email}`);
  return (answer.body as { id: string }).id;
}

/** A user row whose password account is gone: the address is taken and nobody can sign in with it. */
async function usersWithoutPassword(db: Db, filter: Record<string, unknown>): Promise<string[]> {
  const user = await db.collection("users").findOne(filter);
  if (!user) return [];
  const account = await db.collection("accounts").findOne({ userId: user._id, providerId: "credential" });
  return account ? [] : [`user ${String(user._id)} (${user.email}) has no password account`];
}

const signUpOperation: CrashOperation = {
  name: "sign-up",
  async prepare(target, serial) {
    const email = `new-${serial}@example.com`;
    const body = { name: "New", email, password: PASSWORD };
    return {
      run: () => new Person(target).post("/sign-up/email", body),
      halfDone: (db) => usersWithoutPassword(db, { email }),
      retry: () => new Person(target).post("/sign-up/email", body),
    };
  },
};

const acceptOperation: CrashOperation = {
  name: "accept-invitation",
  async prepare(target, serial) {
    const owner = await signUp(target, `owner-${serial}@example.com`);
    const created = await owner.person.post("/organization/create", { name: serial, slug: `org-${serial}` });
    expectOk(created, "organization create");
    const organizationId = (created.body as { id: string }).id;
    const invitee = await signUp(target, `invitee-${serial}@example.com`);
    const invitationId = await invite(owner.person, organizationId, `invitee-${serial}@example.com`);
    const accept = () => invitee.person.post("/organization/accept-invitation", { invitationId });
    return {
      run: accept,
      retry: accept,
      async halfDone(db) {
        const invitation = await db.collection("invitations").findOne({ _id: new ObjectId(invitationId) });
        const member = await db.collection("members").findOne({
          organizationId: new ObjectId(organizationId),
          userId: new ObjectId(invitee.userId),
        });
        const accepted = invitation?.status === "accepted";
        if (accepted && !member) return ["invitation accepted but no membership"];
        if (!accepted && member) return [`membership created but invitation ${invitation?.status ?? "gone"}`];
        return [];
      },
    };
  },
};

const deleteUserOperation: CrashOperation = {
  name: "delete-user",
  async prepare(target, serial) {
    const { member, memberEmail } = await organizationWithMember(target, serial);
    const remove = () => member.person.post("/delete-user", { password: PASSWORD });
    return {
      run: remove,
      retry: remove,
      halfDone: (db) => usersWithoutPassword(db, { email: memberEmail }),
    };
  },
};

const deleteOrganizationOperation: CrashOperation = {
  name: "organization-delete",
  async prepare(target, serial) {
    const { owner, member, organizationId } = await organizationWithMember(target, serial);
    await invite(owner.person, organizationId, `pending-${serial}@example.com`);
    const remove = () => owner.person.post("/organization/delete", { organizationId });
    // Next: the owner deletes again, and the member (whose session had it active) reads the session.
    const retry = async () => {
      const answer = await remove();
      await member.person.get("/get-session");
      return answer;
    };
    return { run: remove, retry, halfDone: async () => [] };
  },
};

const removeMemberOperation: CrashOperation = {
  name: "remove-member",
  async prepare(target, serial) {
    const { owner, member, memberEmail, organizationId } = await organizationWithMember(target, serial);
    const remove = () =>
      owner.person.post("/organization/remove-member", { memberIdOrEmail: memberEmail, organizationId });
    // Next: the owner removes again, and the removed member reads their session.
    const retry = async () => {
      const answer = await remove();
      await member.person.get("/get-session");
      return answer;
    };
    return { run: remove, retry, halfDone: async () => [] };
  },
};

/** The admin is made one by a direct write (the test's setup, as `tessera users set-role` would). */
function banOperation(db: Db): CrashOperation {
  return {
    name: "ban",
    async prepare(target, serial) {
      const admin = await signUp(target, `admin-${serial}@example.com`);
      await db
        .collection("users")
        .updateOne({ _id: new ObjectId(admin.userId) }, { $set: { role: "admin" } });
      const victim = await signUp(target, `victim-${serial}@example.com`);
      const secondDevice = new Person(target);
      expectOk(
        await secondDevice.post("/sign-in/email", {
          email: `victim-${serial}@example.com`,
          password: PASSWORD,
        }),
        "second sign-in",
      );
      const ban = () => admin.person.post("/admin/ban-user", { userId: victim.userId });
      return {
        run: ban,
        retry: ban,
        async halfDone(stored) {
          const user = await stored.collection("users").findOne({ _id: new ObjectId(victim.userId) });
          if (user?.banned !== true) return [];
          const problems: string[] = [];
          for (const device of [victim.person, secondDevice]) {
            const session = await device.get("/get-session");
            if (session.status === 200 && session.body !== null)
              problems.push("a banned user's session still reads as signed in");
          }
          return problems;
        },
      };
    },
  };
}

export function crashOperations(db: Db): CrashOperation[] {
  return [
    signUpOperation,
    acceptOperation,
    deleteUserOperation,
    deleteOrganizationOperation,
    removeMemberOperation,
    banOperation(db),
  ];
}
