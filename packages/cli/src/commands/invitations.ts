import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { text } from "node:stream/consumers";
import type { ErrorCode } from "@tessera/auth-core";
import { Command } from "commander";
import { type CsvRow, parseCsv } from "../csv.ts";
import { CliError, EXIT, notFound, usageError } from "../errors.ts";
import { contextOf, type RunContext, report } from "../kit.ts";
import { organizationNotFound, withOperator } from "../operator.ts";
import { startProgress } from "../progress.ts";
import { formatTable } from "../table.ts";

/**
 * `tessera invitations send --org <slug> --csv <file>`: one invitation per CSV row through the core's
 * invite path (the rules, limits, one pending invitation per address and the mail of
 * POST /organization/invite-member), on behalf of an owner of the organization or `--inviter`,
 * recorded in the audit trail with the operator `cli:<os user>` as actor.
 */

export interface InvitationsSendOptions {
  org: string;
  /** A path, or `-` for stdin. */
  csv: string;
  /** The inviting member's email; default the organization's oldest owner. */
  inviter?: string | undefined;
  dryRun?: boolean | undefined;
}

type InvitationRowStatus = "sent" | "would-send" | "skipped" | "refused";

/** One CSV row's outcome (docs/cli.md: the stable --json shape). */
export interface InvitationRow {
  line: number;
  email: string;
  role: string;
  /** The team as the CSV names it (name or id), or null. */
  team: string | null;
  teamId: string | null;
  status: InvitationRowStatus;
  /** sent: the new invitation's id. */
  invitationId?: string;
  /** skipped and refused: the catalogue code (DUPLICATE_ROW for a repeated address). */
  code?: string;
  /** skipped and refused: the catalogue message (or why the row repeats). */
  reason?: string;
}

export interface InvitationsSendResult {
  organization: { id: string; slug: string };
  inviter: { id: string; email: string };
  dryRun: boolean;
  counts: { sent: number; wouldSend: number; skipped: number; refused: number };
  rows: InvitationRow[];
}

/** Refusals that mean the row's wish already holds: reported as skipped (a CSV can be sent again). */
const ALREADY_DONE: readonly string[] = ["MEMBER_ALREADY_EXISTS", "INVITATION_ALREADY_PENDING"];

async function readCsvText(run: RunContext, path: string): Promise<string> {
  if (path === "-") return text(run.io.stdin);
  const file = resolve(run.io.cwd, path);
  if (!existsSync(file)) throw usageError(`--csv: no such file ${file}`);
  return readFile(file, "utf8");
}

interface Invitee {
  line: number;
  email: string;
  roles: string[];
  team: string | null;
}

/**
 * Every row through the invite endpoint's input schema before anything is sent: an invalid address
 * or role list is a bad CSV (exit 2, every bad line named, nothing sent).
 */
async function readInvitees(rows: readonly CsvRow[]): Promise<Invitee[]> {
  const { parseInvitee } = await import("@tessera/auth-core/operator");
  const { ERROR_CATALOGUE } = await import("@tessera/auth-core");
  const invitees: Invitee[] = [];
  const problems: string[] = [];
  for (const row of rows) {
    const email = row.fields.email ?? "";
    const parsed = parseInvitee(email, row.fields.role ?? "");
    if (!parsed.ok) {
      const what =
        parsed.code === "INVALID_EMAIL" ? JSON.stringify(email) : `role ${JSON.stringify(row.fields.role)}`;
      problems.push(`line ${row.line}: ${ERROR_CATALOGUE[parsed.code].message} (${what})`);
      continue;
    }
    invitees.push({ line: row.line, ...parsed.value, team: row.fields.team || null });
  }
  if (problems.length > 0) {
    const shown = problems.slice(0, 10);
    if (problems.length > shown.length) shown.push(`… and ${problems.length - shown.length} more`);
    throw usageError(`--csv: nothing was sent; fix these rows:\n  ${shown.join("\n  ")}`);
  }
  return invitees;
}

type OperatorOrganizations = ReturnType<
  typeof import("@tessera/auth-core/operator").createOperatorOrganizations
>;
type Organization = NonNullable<Awaited<ReturnType<OperatorOrganizations["findOrganization"]>>>;
type Inviter = NonNullable<Awaited<ReturnType<OperatorOrganizations["findOwner"]>>>;

/** `--inviter`, else the organization's oldest owner; a member of the organization, or exit 3, 2 or 4. */
async function findInviter(orgs: OperatorOrganizations, org: Organization, email: string | undefined) {
  const inviter = email ? await orgs.findUserByEmail(email) : await orgs.findOwner(org);
  if (!inviter) {
    if (email) throw notFound("USER_NOT_FOUND", `no user with the email ${email}`);
    throw usageError(`${org.slug} has no owner to invite on behalf of: name a member with --inviter <email>`);
  }
  if ((await orgs.memberRole(org, inviter._id)) === null)
    throw new CliError(
      "NOT_A_MEMBER_OF_ORGANIZATION",
      `--inviter: ${inviter.email} is not a member of ${org.slug}`,
      EXIT.refused,
    );
  return inviter;
}

/**
 * One row through the core's invite path (the team looked up by id or name first). `planned`: the
 * invitations a dry run would have created before this row, for the invitation limit.
 */
async function inviteOne(
  orgs: OperatorOrganizations,
  org: Organization,
  inviter: Inviter,
  invitee: Invitee,
  options: { dryRun: boolean; planned: number },
): Promise<InvitationRow> {
  const { ERROR_CATALOGUE } = await import("@tessera/auth-core");
  const team = invitee.team === null ? null : await orgs.findTeam(org, invitee.team);
  const base = {
    line: invitee.line,
    email: invitee.email,
    role: invitee.roles.join(","),
    team: invitee.team,
    teamId: team?._id.toHexString() ?? null,
  };
  const refusal = (code: ErrorCode): InvitationRow => ({
    ...base,
    status: ALREADY_DONE.includes(code) ? "skipped" : "refused",
    code,
    reason: ERROR_CATALOGUE[code].message,
  });
  if (invitee.team !== null && team === null) return refusal("TEAM_NOT_FOUND");
  const outcome = await orgs.invite(
    org,
    inviter,
    { email: invitee.email, roles: invitee.roles, teamIds: base.teamId ? [base.teamId] : [] },
    options,
  );
  if (!outcome.ok) return refusal(outcome.code);
  if (!outcome.value) return { ...base, status: "would-send" };
  return { ...base, status: "sent", invitationId: outcome.value.id };
}

export async function invitationsSendAction(
  run: RunContext,
  options: InvitationsSendOptions,
): Promise<InvitationsSendResult> {
  const rows = parseCsv(await readCsvText(run, options.csv), {
    required: ["email"],
    optional: ["role", "team"],
  });
  const invitees = await readInvitees(rows);
  const dryRun = options.dryRun === true;
  return withOperator(run, async (session) => {
    const { createOperatorOrganizations } = await import("@tessera/auth-core/operator");
    const orgs = createOperatorOrganizations(session.auth, session.actor);
    const org = await orgs.findOrganization(options.org);
    if (!org) throw organizationNotFound(options.org);
    const inviter = await findInviter(orgs, org, options.inviter);
    const hook = session.auth.context.options.organization.sendInvitationEmail;
    if (!dryRun && !session.mails && !hook)
      throw usageError(
        "no mailer: the invitations could not be mailed. Set SMTP_URL (and TESSERA_MAIL_FROM), or pass --config with the app's mailer; nothing was sent",
      );

    const progress = await startProgress(run, `invitations to ${org.slug}`);
    const result: InvitationsSendResult = {
      organization: { id: org._id.toHexString(), slug: org.slug },
      inviter: { id: inviter._id.toHexString(), email: inviter.email },
      dryRun,
      counts: { sent: 0, wouldSend: 0, skipped: 0, refused: 0 },
      rows: [],
    };
    const firstLine = new Map<string, number>();
    for (const invitee of invitees) {
      const earlier = firstLine.get(invitee.email);
      if (earlier === undefined) firstLine.set(invitee.email, invitee.line);
      const row: InvitationRow =
        earlier === undefined
          ? await inviteOne(orgs, org, inviter, invitee, { dryRun, planned: result.counts.wouldSend })
          : {
              line: invitee.line,
              email: invitee.email,
              role: invitee.roles.join(","),
              team: invitee.team,
              teamId: null,
              status: "skipped",
              code: "DUPLICATE_ROW",
              reason: `the same address as line ${earlier}`,
            };
      result.rows.push(row);
      result.counts[row.status === "would-send" ? "wouldSend" : row.status]++;
      progress.step(`${row.email} ${row.status}`, result.rows.length, invitees.length);
    }
    await progress.finish(summarize(result));
    return result;
  });
}

function summarize(result: InvitationsSendResult): string {
  const { counts } = result;
  const done = result.dryRun ? `${counts.wouldSend} would be sent` : `${counts.sent} sent`;
  return `${done}, ${counts.skipped} skipped, ${counts.refused} refused`;
}

/** 0 when every row was sent (or would be) or skipped, 4 when a rule refused any. */
export function exitCodeOf(result: InvitationsSendResult): number {
  return result.counts.refused > 0 ? EXIT.refused : EXIT.ok;
}

export const invitationsCommand = new Command("invitations")
  .description("organization invitations")
  .addCommand(
    new Command("send")
      .description("invite every address of a CSV file (columns: email, role, team) to an organization")
      .requiredOption("--org <org>", "the organization's slug or id")
      .requiredOption(
        "--csv <file>",
        "CSV with a header line: email, role (default member), team (name or id); - for stdin",
      )
      .option("--inviter <email>", "the member inviting (default: the organization's oldest owner)")
      .option("--dry-run", "check every row against the rules; create and mail nothing")
      .action(async (options: InvitationsSendOptions, command: Command) => {
        const run = contextOf(command);
        const result = await invitationsSendAction(run, options);
        report(run, result, (data) => [
          ...formatTable(
            run.io,
            ["LINE", "EMAIL", "ROLE", "STATUS", "DETAIL"],
            data.rows.map((row) => [
              String(row.line),
              row.email,
              row.role,
              row.status,
              row.reason ?? row.invitationId ?? "",
            ]),
          ),
          `${data.organization.slug}: ${summarize(data)} (inviter ${data.inviter.email})`,
        ]);
        // The report above is the answer (one JSON document with --json): exit 4 without a second one.
        if (exitCodeOf(result) !== EXIT.ok)
          throw new CliError("ROWS_REFUSED", "some rows were refused", EXIT.refused, { reported: true });
      }),
  );
