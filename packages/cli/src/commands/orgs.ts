import type { OperatorMember, OperatorOrganization } from "@tessera/auth-core/operator";
import { Command, Option } from "commander";
import { notFound } from "../errors.ts";
import { confirmOrRefuse, contextOf, noteEmpty, parseCount, type RunContext, report } from "../kit.ts";
import {
  describeUserBriefly,
  type OperatorSession,
  organizationNotFound,
  resolveUser,
  resolveUserId,
  withOperator,
} from "../operator.ts";
import { formatDate, formatTable } from "../table.ts";

/** Organizations through the core's organization services, as the operator `cli:<os user>`. */

async function withOrganizations<T>(
  run: RunContext,
  work: (
    orgs: ReturnType<typeof import("@tessera/auth-core/operator").createOperatorOrganizations>,
    session: OperatorSession,
  ) => Promise<T>,
): Promise<T> {
  return withOperator(run, async (session) => {
    const { createOperatorOrganizations } = await import("@tessera/auth-core/operator");
    return work(createOperatorOrganizations(session.auth, session.actor), session);
  });
}

async function requireOrganization(
  orgs: ReturnType<typeof import("@tessera/auth-core/operator").createOperatorOrganizations>,
  ref: string,
) {
  const org = await orgs.findOrganization(ref);
  if (!org) throw organizationNotFound(ref);
  return org;
}

export interface OrgsListResult {
  organizations: OperatorOrganization[];
  total: number;
}

export async function orgsListAction(
  run: RunContext,
  options: { search?: string | undefined; limit?: number | undefined; offset?: number | undefined },
): Promise<OrgsListResult> {
  return withOrganizations(run, (orgs) =>
    orgs.list({
      ...(options.search ? { search: options.search } : {}),
      limit: Math.min(options.limit ?? 50, 1000),
      offset: options.offset ?? 0,
    }),
  );
}

export interface OrgsShowResult {
  organization: OperatorOrganization;
  members: OperatorMember[];
  pendingInvitations: number;
}

export async function orgsShowAction(run: RunContext, ref: string): Promise<OrgsShowResult> {
  return withOrganizations(run, async (orgs) => orgs.show(await requireOrganization(orgs, ref)));
}

type OperatorOrganizations = ReturnType<
  typeof import("@tessera/auth-core/operator").createOperatorOrganizations
>;

/**
 * Role names as the core's role table has them (the defaults and `organization.roles` of --config):
 * an unknown one is exit 3 naming the roles there are, before anything changes.
 */
function parseKnownRoles(orgs: OperatorOrganizations, role: string): string[] {
  const roles = role
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  const known = orgs.roleNames();
  const unknown = roles.filter((name) => !known.includes(name));
  if (roles.length === 0 || unknown.length > 0)
    throw notFound(
      "MEMBER_ROLE_NOT_FOUND",
      `${roles.length === 0 ? "no role given" : `unknown role ${unknown.join(", ")}`} (roles: ${known.join(", ")})`,
    );
  return roles;
}

export interface OrgMemberResult {
  organizationId: string;
  userId: string;
  role?: string;
}

export async function orgsAddMemberAction(
  run: RunContext,
  ref: string,
  user: string,
  options: { role?: string | undefined },
): Promise<OrgMemberResult> {
  return withOrganizations(run, async (orgs, session) => {
    const org = await requireOrganization(orgs, ref);
    const role = parseKnownRoles(orgs, options.role ?? "member").join(",");
    const userId = await resolveUserId(session, user);
    await session.api.addMember({
      body: { organizationId: org._id.toHexString(), userId, role },
      headers: session.headers,
    });
    await orgs.recordAddMember(org, userId, role);
    return { organizationId: org._id.toHexString(), userId, role };
  });
}

export async function orgsRemoveMemberAction(
  run: RunContext,
  ref: string,
  user: string,
  options: { yes?: boolean | undefined },
): Promise<OrgMemberResult> {
  return withOrganizations(run, async (orgs, session) => {
    const org = await requireOrganization(orgs, ref);
    const target = await resolveUser(session, user);
    const userId = target.id;
    const role = await orgs.memberRole(org, userId);
    if (role === null) throw notFound("MEMBER_NOT_FOUND", `${target.email} is not a member of ${org.slug}`);
    await confirmOrRefuse(
      run,
      options.yes,
      `Remove ${describeUserBriefly(target)}, ${role} of ${org.name} (${org.slug}), from the organization?`,
    );
    await orgs.removeMember(org, userId);
    return { organizationId: org._id.toHexString(), userId };
  });
}

export async function orgsSetRoleAction(
  run: RunContext,
  ref: string,
  user: string,
  role: string,
): Promise<OrgMemberResult> {
  return withOrganizations(run, async (orgs, session) => {
    const org = await requireOrganization(orgs, ref);
    const roles = parseKnownRoles(orgs, role);
    const userId = await resolveUserId(session, user);
    await orgs.setMemberRole(org, userId, roles);
    return { organizationId: org._id.toHexString(), userId, role: roles.join(",") };
  });
}

export async function orgsDeleteAction(
  run: RunContext,
  ref: string,
  options: { yes?: boolean | undefined },
): Promise<{ organizationId: string; deleted: true }> {
  return withOrganizations(run, async (orgs) => {
    const org = await requireOrganization(orgs, ref);
    const shown = await orgs.show(org);
    await confirmOrRefuse(
      run,
      options.yes,
      `Delete ${org.name} (${org.slug}, ${org._id.toHexString()}) with its ${shown.members.length} members, ${shown.pendingInvitations} pending invitations and teams?`,
    );
    await orgs.deleteOrganization(org);
    return { organizationId: org._id.toHexString(), deleted: true as const };
  });
}

const yesOption = () => new Option("-y, --yes", "do it without asking (needed without a terminal)");
const orgHelp = "the organization's slug or id";
const userHelp = "the user's email or id";

export const orgsCommand = new Command("orgs")
  .description("organizations and their members")
  .addCommand(
    new Command("list")
      .description("list organizations with their member counts")
      .option("--search <text>", "slug containing the text")
      .option("--limit <n>", "organizations per page (default 50)", parseCount("--limit"))
      .option("--offset <n>", "skip this many", parseCount("--offset"))
      .action(async (options: { search?: string; limit?: number; offset?: number }, command: Command) => {
        const run = contextOf(command);
        const listed = await orgsListAction(run, options);
        noteEmpty(run, listed.organizations.length, "No organizations.");
        report(run, listed, (data) =>
          formatTable(
            run.io,
            ["ID", "SLUG", "NAME", "MEMBERS", "CREATED"],
            data.organizations.map((org) => [
              org.id,
              org.slug,
              org.name,
              String(org.members),
              formatDate(org.createdAt),
            ]),
          ),
        );
      }),
  )
  .addCommand(
    new Command("show")
      .description("an organization and its members")
      .argument("<org>", orgHelp)
      .action(async (ref: string, _options, command: Command) => {
        const run = contextOf(command);
        report(run, await orgsShowAction(run, ref), (data) => [
          `${data.organization.name} (${data.organization.slug}, ${data.organization.id})`,
          `${data.organization.members} members, ${data.pendingInvitations} pending invitations`,
          ...formatTable(
            run.io,
            ["USER", "EMAIL", "ROLE", "SINCE"],
            data.members.map((member) => [
              member.userId,
              member.email ?? "-",
              member.role,
              formatDate(member.createdAt),
            ]),
          ),
        ]);
      }),
  )
  .addCommand(
    new Command("add-member")
      .description("make a user a member (within the organization's limits)")
      .argument("<org>", orgHelp)
      .argument("<user>", userHelp)
      .option("--role <role>", "role(s), comma separated (default member)")
      .action(async (ref: string, user: string, options: { role?: string }, command: Command) => {
        const run = contextOf(command);
        report(run, await orgsAddMemberAction(run, ref, user, options), (data) => [
          `${user} is now a member of ${ref} (${data.role})`,
        ]);
      }),
  )
  .addCommand(
    new Command("remove-member")
      .description("remove a member (never the only owner)")
      .argument("<org>", orgHelp)
      .argument("<user>", userHelp)
      .addOption(yesOption())
      .action(async (ref: string, user: string, options: { yes?: boolean }, command: Command) => {
        const run = contextOf(command);
        report(run, await orgsRemoveMemberAction(run, ref, user, options), () => [
          `removed ${user} from ${ref}`,
        ]);
      }),
  )
  .addCommand(
    new Command("set-role")
      .description("set a member's role(s), comma separated (the only owner stays owner)")
      .argument("<org>", orgHelp)
      .argument("<user>", userHelp)
      .argument("<role>")
      .action(async (ref: string, user: string, role: string, _options, command: Command) => {
        const run = contextOf(command);
        report(run, await orgsSetRoleAction(run, ref, user, role), (data) => [
          `${user} is now ${data.role} in ${ref}`,
        ]);
      }),
  )
  .addCommand(
    new Command("delete")
      .description("delete an organization with its members, invitations and teams")
      .argument("<org>", orgHelp)
      .addOption(yesOption())
      .action(async (ref: string, options: { yes?: boolean }, command: Command) => {
        const run = contextOf(command);
        report(run, await orgsDeleteAction(run, ref, options), () => [`deleted ${ref}`]);
      }),
  );
