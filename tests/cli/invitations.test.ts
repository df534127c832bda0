import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { ObjectId } from "mongodb";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { auditEvents } from "#test/admin.ts";
import { addMember, createOrganization, type SignedIn, signIn } from "#test/organization.ts";
import { useTestAuth } from "#test/test-auth.ts";
import {
  exitCodeOf,
  type InvitationsSendOptions,
  invitationsSendAction,
} from "../../packages/cli/src/commands/invitations.ts";
import { EXIT, toKnownError } from "../../packages/cli/src/errors.ts";
import { type SmtpSink, startSmtpSink } from "../e2e/smtp-sink.ts";
import { testRun } from "./run-context.ts";

/**
 * `tessera invitations send` against the test database and a real SMTP server: every row through
 * the invite endpoint's rules, mails delivered, the operator in the audit trail.
 */
const ORGANIZATION = { teams: { enabled: true }, invitationLimit: 3 };
const t = useTestAuth({ organization: ORGANIZATION });
let sink: SmtpSink;
let dir: string;
let config: string;

vi.setConfig({ testTimeout: 60_000 });

beforeAll(async () => {
  sink = await startSmtpSink();
  dir = await mkdtemp(join(tmpdir(), "tessera-invitations-"));
  // A TypeScript options module, as `tessera init` writes one: loaded without tsx in the app.
  config = join(dir, "tessera.config.ts");
  await writeFile(
    config,
    `interface Options { baseURL: string; organization: { teams: { enabled: boolean }; invitationLimit: number } }
const options: Options = { baseURL: "https://app.example.com", organization: ${JSON.stringify(ORGANIZATION)} };
export default options;
`,
  );
});

afterAll(async () => {
  await sink.close();
  await rm(dir, { recursive: true, force: true });
});

function run(options: { json?: boolean; smtp?: boolean } = {}) {
  const captured = testRun(t.db.databaseName, {
    json: options.json ?? true,
    env: options.smtp === false ? {} : { SMTP_URL: sink.url, TESSERA_MAIL_FROM: "Ops <ops@example.com>" },
  });
  captured.connection.config = config;
  return captured;
}

async function csv(name: string, text: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, text);
  return file;
}

async function send(options: InvitationsSendOptions, context = run()) {
  return invitationsSendAction(context, options);
}

async function failureOf(
  promise: Promise<unknown>,
): Promise<{ exit: number; code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    const known = toKnownError(error);
    if (!known) throw error;
    return { exit: known.exitCode, code: known.code, message: known.message };
  }
  throw new Error("expected a failure");
}

function invitationsOf(organizationId: string) {
  return t.db
    .collection("invitations")
    .find({ organizationId: new ObjectId(organizationId) })
    .sort({ createdAt: 1 })
    .toArray();
}

async function createTeam(owner: SignedIn, organizationId: string, name: string): Promise<string> {
  const res = await owner.browser.post<{ id: string }>("/organization/create-team", { organizationId, name });
  expect(res.status).toBe(200);
  return res.body.id;
}

describe("tessera invitations send", () => {
  it("sends a row per address, skips members, pending addresses and repeated rows, refuses what a rule refuses; mails the links", async () => {
    const owner = await signIn(t, "inv-owner");
    const member = await signIn(t, "inv-member");
    const orgId = await createOrganization(owner, "inv-acme", "Acme");
    await addMember(t, orgId, member, "member");
    const teamId = await createTeam(owner, orgId, "Design");
    const file = await csv(
      "acme.csv",
      [
        "Email,Role,Team",
        "new1@example.com,,",
        '" New2@Example.com ","admin,member",design',
        `${member.email},member,`,
        "new1@example.com,admin,",
        "new3@example.com,member,Nope",
        "new4@example.com,emperor,",
      ].join("\r\n"),
    );

    const result = await send({ org: "inv-acme", csv: file });
    expect(exitCodeOf(result)).toBe(EXIT.refused);
    expect(result.organization).toEqual({ id: orgId, slug: "inv-acme" });
    expect(result.inviter).toEqual({ id: owner.userId, email: owner.email });
    expect(result.counts).toEqual({ sent: 2, wouldSend: 0, skipped: 2, refused: 2 });
    const sent = await invitationsOf(orgId);
    expect(result.rows).toEqual([
      expect.objectContaining({
        line: 2,
        email: "new1@example.com",
        role: "member",
        team: null,
        teamId: null,
        status: "sent",
        invitationId: sent[0]!._id.toHexString(),
      }),
      expect.objectContaining({
        line: 3,
        email: "new2@example.com",
        role: "admin,member",
        team: "design",
        teamId,
        status: "sent",
        invitationId: sent[1]!._id.toHexString(),
      }),
      {
        line: 4,
        email: member.email,
        role: "member",
        team: null,
        teamId: null,
        status: "skipped",
        code: "MEMBER_ALREADY_EXISTS",
        reason: "User is already a member of this organization",
      },
      {
        line: 5,
        email: "new1@example.com",
        role: "admin",
        team: null,
        teamId: null,
        status: "skipped",
        code: "DUPLICATE_ROW",
        reason: "the same address as line 2",
      },
      {
        line: 6,
        email: "new3@example.com",
        role: "member",
        team: "Nope",
        teamId: null,
        status: "refused",
        code: "TEAM_NOT_FOUND",
        reason: "Team not found",
      },
      {
        line: 7,
        email: "new4@example.com",
        role: "emperor",
        team: null,
        teamId: null,
        status: "refused",
        code: "MEMBER_ROLE_NOT_FOUND",
        reason: "Role not found",
      },
    ]);
    expect(
      sent.map((row) => [row.email, row.role, row.teamId, row.status, row.inviterId.toHexString()]),
    ).toEqual([
      ["new1@example.com", "member", null, "pending", owner.userId],
      ["new2@example.com", "admin,member", teamId, "pending", owner.userId],
    ]);

    const mail = await sink.waitForMail("new2@example.com", "You have been invited");
    expect(mail.text).toContain(`https://app.example.com/accept-invitation/${sent[1]!._id.toHexString()}`);
    expect(mail.text).toContain("inv-owner invited you to join Acme");
    expect(mail.from?.text).toContain("ops@example.com");
    await sink.waitForMail("new1@example.com", "You have been invited");

    const events = await auditEvents(t, { actor: "cli:tester", action: "organization.invite" });
    expect(events.map((event) => event.details)).toEqual([
      expect.objectContaining({ organizationId: orgId, email: "new1@example.com", inviterId: owner.userId }),
      expect.objectContaining({ organizationId: orgId, email: "new2@example.com", inviterId: owner.userId }),
    ]);

    // Sent again: the pending addresses are skipped (one pending invitation per address), no new mail.
    const mailsBefore = sink.mails.length;
    const again = await send({ org: orgId, csv: file });
    expect(again.rows.slice(0, 2).map((row) => [row.status, row.code, row.reason])).toEqual([
      ["skipped", "INVITATION_ALREADY_PENDING", "User is already invited to this organization"],
      ["skipped", "INVITATION_ALREADY_PENDING", "User is already invited to this organization"],
    ]);
    expect(again.counts).toEqual({ sent: 0, wouldSend: 0, skipped: 4, refused: 2 });
    expect(await invitationsOf(orgId)).toHaveLength(2);
    expect(sink.mails.length).toBe(mailsBefore);
  });

  it("the invitation limit holds: --dry-run predicts it and writes nothing, the send refuses the row over it", async () => {
    const owner = await signIn(t, "lim-owner");
    const orgId = await createOrganization(owner, "inv-limit");
    const file = await csv(
      "limit.csv",
      "email\na@example.com\nb@example.com\nc@example.com\nd@example.com\n",
    );
    const mailsBefore = sink.mails.length;

    const dry = await send({ org: "inv-limit", csv: file, dryRun: true });
    expect(dry.rows.map((row) => row.status)).toEqual(["would-send", "would-send", "would-send", "refused"]);
    expect(dry.rows[3]).toMatchObject({
      code: "INVITATION_LIMIT_REACHED",
      reason: "Invitation limit reached",
    });
    expect(dry.counts).toEqual({ sent: 0, wouldSend: 3, skipped: 0, refused: 1 });
    expect(await invitationsOf(orgId)).toHaveLength(0);

    const result = await send({ org: "inv-limit", csv: file });
    expect(result.rows.map((row) => row.status)).toEqual(["sent", "sent", "sent", "refused"]);
    expect(exitCodeOf(result)).toBe(EXIT.refused);
    expect((await invitationsOf(orgId)).map((row) => row.email)).toEqual([
      "a@example.com",
      "b@example.com",
      "c@example.com",
    ]);
    await sink.waitForMail("c@example.com", "You have been invited");
    expect(sink.mails.length).toBe(mailsBefore + 3);
  });

  it("--inviter: invites as that member, within what the member may grant", async () => {
    const owner = await signIn(t, "who-owner");
    const admin = await signIn(t, "who-admin");
    const plain = await signIn(t, "who-plain");
    const outsider = await signIn(t, "who-outsider");
    const orgId = await createOrganization(owner, "inv-who");
    await addMember(t, orgId, admin, "admin");
    await addMember(t, orgId, plain, "member");
    const file = await csv("who.csv", "email,role\nx1@example.com,member\nx2@example.com,owner\n");

    const byAdmin = await send({ org: "inv-who", csv: file, inviter: admin.email });
    expect(byAdmin.inviter.email).toBe(admin.email);
    expect(byAdmin.rows.map((row) => [row.status, row.code])).toEqual([
      ["sent", undefined],
      ["refused", "INVITATION_ROLE_NOT_ALLOWED"],
    ]);
    expect((await invitationsOf(orgId)).map((row) => row.inviterId.toHexString())).toEqual([admin.userId]);

    const byMember = await send({ org: "inv-who", csv: file, inviter: plain.email });
    expect(byMember.rows.map((row) => [row.status, row.reason])).toEqual([
      ["refused", "not allowed to invite users to this organization"],
      ["refused", "not allowed to invite users to this organization"],
    ]);

    expect(await failureOf(send({ org: "inv-who", csv: file, inviter: outsider.email }))).toEqual({
      exit: EXIT.refused,
      code: "NOT_A_MEMBER_OF_ORGANIZATION",
      message: `--inviter: ${outsider.email} is not a member of inv-who`,
    });
    expect(await failureOf(send({ org: "inv-who", csv: file, inviter: "nobody@example.com" }))).toEqual({
      exit: EXIT.notFound,
      code: "USER_NOT_FOUND",
      message: "no user with the email nobody@example.com",
    });
    expect(await invitationsOf(orgId)).toHaveLength(1);
  });

  it("a bad CSV, an unknown organization or no mailer: a clear message, nothing written, nothing mailed", async () => {
    const owner = await signIn(t, "bad-owner");
    const orgId = await createOrganization(owner, "inv-bad");
    const mailsBefore = sink.mails.length;
    const cases: [string, string][] = [
      ["", "--csv: the file is empty (it needs a header line, e.g. email,role,team)"],
      ["email,role\n", "--csv: the file has a header line but no rows"],
      ["mail,role\na@example.com,member\n", '--csv: unknown column "mail" (columns: email, role, team)'],
      ["role\nmember\n", "--csv: the header line has no email column (found: role)"],
      ["email,role\na@example.com,member,x\n", "--csv: line 2 has 3 fields, the header has 2"],
      ['email,role\n"a@example.com,member\n', "--csv: line 2: a quoted field is never closed"],
      [
        'email;role\r\nok@example.com;member\r\n"b@example.com;member\r\n',
        "--csv: line 3: a quoted field is never closed",
      ],
      [
        'email,role\n"a@example.com"x,member\n',
        '--csv: line 2: a quoted field goes on after its closing quote (write a quote inside quotes as "")',
      ],
      ["email;role\na@example.com;member;x\n", "--csv: line 2 has 3 fields, the header has 2"],
      [
        "email\nok@example.com\nnot-an-email\n\n@example.com\n",
        '--csv: nothing was sent; fix these rows:\n  line 3: Invalid email ("not-an-email")\n  line 5: Invalid email ("@example.com")',
      ],
    ];
    for (const [text, message] of cases) {
      const file = await csv("bad.csv", text);
      expect(await failureOf(send({ org: "inv-bad", csv: file }))).toEqual({
        exit: EXIT.usage,
        code: "USAGE",
        message,
      });
    }
    expect(await failureOf(send({ org: "inv-bad", csv: join(dir, "missing.csv") }))).toEqual({
      exit: EXIT.usage,
      code: "USAGE",
      message: `--csv: no such file ${join(dir, "missing.csv")}`,
    });
    const good = await csv("good.csv", "email\nok@example.com\n");
    expect(await failureOf(send({ org: "no-such-org", csv: good }))).toEqual({
      exit: EXIT.notFound,
      code: "ORGANIZATION_NOT_FOUND",
      message: 'no organization with the id or slug "no-such-org" (`tessera orgs list` lists them)',
    });
    expect(await failureOf(send({ org: "inv-bad", csv: good }, run({ smtp: false })))).toMatchObject({
      exit: EXIT.usage,
      message: expect.stringMatching(/^no mailer: the invitations could not be mailed\. Set SMTP_URL/),
    });
    expect(await invitationsOf(orgId)).toHaveLength(0);
    expect(sink.mails.length).toBe(mailsBefore);
  });

  it("--csv - reads the rows from stdin; an organization without an owner needs --inviter (exit 2)", async () => {
    const owner = await signIn(t, "stdin-owner");
    const admin = await signIn(t, "stdin-admin");
    const orgId = await createOrganization(owner, "inv-stdin");
    await addMember(t, orgId, admin, "admin");
    const stdin = new PassThrough();
    stdin.end("email\npiped@example.com\n");
    const context = testRun(t.db.databaseName, {
      json: true,
      stdin,
      env: { SMTP_URL: sink.url },
    });
    context.connection.config = config;
    const result = await send({ org: "inv-stdin", csv: "-" }, context);
    expect(result.rows.map((row) => [row.email, row.status])).toEqual([["piped@example.com", "sent"]]);

    // The owner leaves the organization's owner role to nobody (as a repair would find it).
    await t.db
      .collection("members")
      .updateOne({ userId: new ObjectId(owner.userId) }, { $set: { role: "member" } });
    const file = await csv("ownerless.csv", "email\nlater@example.com\n");
    expect(await failureOf(send({ org: "inv-stdin", csv: file }))).toEqual({
      exit: EXIT.usage,
      code: "USAGE",
      message: "inv-stdin has no owner to invite on behalf of: name a member with --inviter <email>",
    });
    const byAdmin = await send({ org: "inv-stdin", csv: file, inviter: admin.email });
    expect(byAdmin.rows.map((row) => row.status)).toEqual(["sent"]);
    expect((await invitationsOf(orgId)).map((row) => row.email)).toEqual([
      "piped@example.com",
      "later@example.com",
    ]);
  });

  it("plain progress lines on stderr without a terminal", async () => {
    const owner = await signIn(t, "txt-owner");
    await createOrganization(owner, "inv-text");
    const file = await csv("text.csv", "email\nt1@example.com\n");
    const context = run({ json: false });
    await send({ org: "inv-text", csv: file }, context);
    expect(context.stderr()).toContain("invitations to inv-text: t1@example.com sent (1/1)");
    expect(context.stderr()).toContain("invitations to inv-text: 1 sent, 0 skipped, 0 refused");
  });
});
