import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { getAuth } from "~/auth.server";
import { DoneNotice, ErrorSummary, Field, Submit } from "~/components/form";
import { failure, field, invalid, readForm, redirectWith } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { canManage, requireOrganization } from "~/lib/org.server";

export const handle = { title: "organizations.tabs.teams" };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { organization, roles } = await requireOrganization(request, params.slug);
  const auth = await getAuth();
  const teams = await Promise.all(
    organization.teams.map(async (team) => {
      const { data } = await auth.api.listTeamMembers({
        query: { teamId: team.id },
        headers: request.headers,
      });
      return {
        id: team.id,
        name: team.name,
        members: data.map((row) => ({
          userId: row.userId,
          name: organization.members.find((member) => member.userId === row.userId)?.user.name ?? row.userId,
        })),
      };
    }),
  );
  return {
    canManage: canManage(roles),
    teams,
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
        body: { teamId, userId: field(form, "userId"), organizationId },
        headers,
      });
    } else if (intent === "remove-member") {
      await auth.api.removeTeamMember({
        body: { teamId, userId: field(form, "userId"), organizationId },
        headers,
      });
    }
    return redirectWith(`/organizations/${organization.slug}/teams?done=1`);
  } catch (error) {
    return failure(error, form, { VALIDATION_ERROR: "form" });
  }
}

export default function Teams() {
  const { t } = useT();
  const location = useLocation();
  const { teams, people, canManage } = useLoaderData<typeof loader>();
  const state = useActionData<typeof action>();
  return (
    <section aria-labelledby="teams-title">
      <h2 id="teams-title">{t("organizations.teams.title")}</h2>
      <DoneNotice outcomes={{ 1: "common.saved" }} state={state} />
      <ErrorSummary state={state} labels={{ name: t("organizations.teams.name") }} />
      {teams.length === 0 ? <p>{t("organizations.teams.none")}</p> : null}
      {teams.map((team) => (
        <fieldset key={team.id}>
          <legend>{team.name}</legend>
          <p>
            {team.members.length === 0
              ? t("organizations.teams.noMembers")
              : t("organizations.teams.members", {
                  names: team.members.map((member) => member.name).join(", "),
                })}
          </p>
          {canManage ? (
            <div className="grid-2">
              <Form method="post" className="row-actions">
                <input type="hidden" name="teamId" value={team.id} />
                <label htmlFor={`rename-${team.id}`} className="visually-hidden">
                  {t("organizations.teams.newName", { name: team.name })}
                </label>
                <input id={`rename-${team.id}`} name="name" defaultValue={team.name} />
                <button
                  type="submit"
                  name="intent"
                  value="rename"
                  className="button button-small button-secondary"
                >
                  {t("organizations.teams.rename")}
                </button>
                <button
                  type="submit"
                  name="intent"
                  value="remove"
                  className="button button-small button-danger"
                >
                  {t("common.remove")}
                  <span className="visually-hidden"> {team.name}</span>
                </button>
              </Form>
              <Form method="post" className="row-actions">
                <input type="hidden" name="teamId" value={team.id} />
                <label htmlFor={`member-${team.id}`} className="visually-hidden">
                  {t("organizations.teams.pickMember", { name: team.name })}
                </label>
                <select id={`member-${team.id}`} name="userId">
                  {people.map((person) => (
                    <option key={person.userId} value={person.userId}>
                      {person.name}
                    </option>
                  ))}
                </select>
                <button
                  type="submit"
                  name="intent"
                  value="add-member"
                  className="button button-small button-secondary"
                >
                  {t("organizations.teams.addMember")}
                </button>
                <button
                  type="submit"
                  name="intent"
                  value="remove-member"
                  className="button button-small button-secondary"
                >
                  {t("organizations.teams.removeMember")}
                </button>
              </Form>
            </div>
          ) : null}
        </fieldset>
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
