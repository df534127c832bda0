import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { isAuthError } from "@tessera/auth-core";
import { getAuth } from "~/auth.server";
import { DoneNotice, ErrorSummary, Field, Submit } from "~/components/form";
import { TeamCard } from "~/components/team-card";
import { failure, field, invalid, readForm, redirectWith } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { canManage, requireOrganization } from "~/lib/org.server";

/**
 * The organization's teams with each member's team role (issue 32 §2). Owners and admins manage
 * every team; a team's team admins manage that team's members and their team roles, nothing else
 * (the core decides: features/organization/teams/rules.ts; the page only hides what it would refuse).
 */
export const handle = { title: "organizations.tabs.teams" };

/** The built-in team role that manages its team's members (teams/rules.ts DEFAULT_TEAM_ROLES). */
const TEAM_ADMIN = "team-admin";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { organization, roles, viewer } = await requireOrganization(request, params.slug);
  const auth = await getAuth();
  const managesAll = canManage(roles);
  const memberOf = (userId: string) => organization.members.find((member) => member.userId === userId);
  // A team admin leaves alone members whose organization role manages teams (teams/rules.ts).
  const isLockedFor = (userId: string) => !managesAll && canManage(memberOf(userId)?.role.split(",") ?? []);
  const teams = await Promise.all(
    organization.teams.map(async (team) => {
      // A team's members are listed to its members and to those who manage teams, no one else.
      const rows = await auth.api
        .listTeamMembers({ query: { teamId: team.id }, headers: request.headers })
        .then(({ data }) => data)
        .catch((error: unknown) => {
          if (isAuthError(error) && error.code === "TEAM_NOT_A_MEMBER") return null;
          throw error;
        });
      const mine = rows?.find((row) => row.userId === viewer.user.id);
      return {
        id: team.id,
        name: team.name,
        canManageMembers: managesAll || mine?.role === TEAM_ADMIN,
        members:
          rows?.map((row) => ({
            userId: row.userId,
            name: memberOf(row.userId)?.user.name ?? row.userId,
            role: row.role,
            isLocked: isLockedFor(row.userId),
          })) ?? null,
      };
    }),
  );
  const { teams: teamOptions } = auth.context.options.organization;
  return {
    canManage: managesAll,
    teams,
    teamRoles: [TEAM_ADMIN, "team-member", ...teamOptions.roles],
    people: organization.members.map((member) => ({ userId: member.userId, name: member.user.name })),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const form = await readForm(request);
  const { organization } = await requireOrganization(request, params.slug);
  const auth = await getAuth();
  const intent = field(form, "intent");
  const organizationId = organization.id;
  const teamId = field(form, "teamId");
  const userId = field(form, "userId");
  const role = field(form, "role");
  const headers = request.headers;
  try {
    if (intent === "create") {
      const name = field(form, "name").trim();
      if (!name) return invalid({ name: "REQUIRED" }, form);
      await auth.api.createTeam({ body: { name, organizationId }, headers });
    } else if (intent === "rename") {
      await auth.api.updateTeam({ body: { teamId, data: { name: field(form, "name").trim() } }, headers });
    } else if (intent === "remove") {
      await auth.api.removeTeam({ body: { teamId, organizationId }, headers });
    } else if (intent === "add-member") {
      await auth.api.addTeamMember({
        body: { teamId, userId, organizationId, ...(role ? { role } : {}) },
        headers,
      });
    } else if (intent === "remove-member") {
      await auth.api.removeTeamMember({ body: { teamId, userId, organizationId }, headers });
    } else if (intent === "set-role") {
      await auth.api.updateTeamMemberRole({ body: { teamId, userId, role, organizationId }, headers });
    } else {
      return invalid({ form: "VALIDATION_ERROR" }, form);
    }
    return redirectWith(`/organizations/${organization.slug}/teams?done=1`);
  } catch (error) {
    return failure(error, form, { VALIDATION_ERROR: "form" });
  }
}

export default function Teams() {
  const { t } = useT();
  const location = useLocation();
  const { teams, teamRoles, people, canManage } = useLoaderData<typeof loader>();
  const state = useActionData<typeof action>();
  return (
    <section aria-labelledby="teams-title">
      <h2 id="teams-title">{t("organizations.teams.title")}</h2>
      <DoneNotice outcomes={{ 1: "common.saved" }} state={state} />
      <ErrorSummary state={state} labels={{ name: t("organizations.teams.name") }} />
      {teams.length === 0 ? <p>{t("organizations.teams.none")}</p> : null}
      {teams.map((team) => (
        <TeamCard key={team.id} team={team} teamRoles={teamRoles} people={people} canManageTeam={canManage} />
      ))}
      {canManage ? (
        <Form method="post" noValidate key={location.key}>
          <h3>{t("organizations.teams.create")}</h3>
          <Field name="name" label={t("organizations.teams.name")} state={state} />
          <Submit intent="create">{t("organizations.teams.createSubmit")}</Submit>
        </Form>
      ) : null}
    </section>
  );
}
