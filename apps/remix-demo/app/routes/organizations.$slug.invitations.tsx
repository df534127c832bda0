import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { findGrantableRoles } from "@tessera/auth-core/roles";
import { getAuth } from "~/auth.server";
import { DoneNotice, ErrorSummary, Field, Submit } from "~/components/form";
import { MailState } from "~/components/mail-state";
import { failure, field, readForm, redirectWith } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { canManage, readRoleTable, requireOrganization } from "~/lib/org.server";

export const handle = { title: "organizations.tabs.invitations" };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { organization, roles } = await requireOrganization(request, params.slug);
  const { table, creatorRole } = await readRoleTable();
  // Whether each invitation's mail left (features/mail-outbox): the full organization has no mail states.
  const auth = await getAuth();
  const listed = await auth.api.listInvitations({
    query: { organizationId: organization.id, limit: 100, offset: 0 },
    headers: request.headers,
  });
  const mailStates = new Map(listed.data.map((invitation) => [invitation.id, invitation.mailState]));
  return {
    canManage: canManage(roles),
    // Only the roles the core lets this viewer give (an admin cannot invite an owner).
    grantable: findGrantableRoles(roles, table, creatorRole),
    teams: organization.teams.map((team) => ({ id: team.id, name: team.name })),
    invitations: organization.invitations
      .filter((invitation) => invitation.status === "pending")
      .map((invitation) => ({
        id: invitation.id,
        email: invitation.email,
        role: invitation.role,
        expiresAt: invitation.expiresAt.toISOString(),
        team: organization.teams.find((team) => team.id === invitation.teamId)?.name ?? null,
        mailState: mailStates.get(invitation.id) ?? null,
      })),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const form = await readForm(request);
  const { organization } = await requireOrganization(request, params.slug);
  const auth = await getAuth();
  const intent = field(form, "intent");
  const back = `/organizations/${organization.slug}/invitations`;
  try {
    if (intent === "cancel") {
      await auth.api.cancelInvitation({
        body: { invitationId: field(form, "invitationId") },
        headers: request.headers,
      });
      return redirectWith(`${back}?done=canceled`);
    }
    const teamId = field(form, "teamId");
    await auth.api.createInvitation({
      body: {
        email: field(form, "email"),
        role: field(form, "role") || "member",
        organizationId: organization.id,
        ...(teamId ? { teamId } : {}),
        ...(intent === "resend" ? { resend: true } : {}),
      },
      headers: request.headers,
    });
    return redirectWith(`${back}?done=${intent === "resend" ? "resent" : "sent"}`);
  } catch (error) {
    return failure(error, form, { INVITATION_ALREADY_PENDING: "email", MEMBER_ALREADY_EXISTS: "email" });
  }
}

const INVITATION_OUTCOMES = {
  sent: "organizations.invitations.done.sent",
  resent: "organizations.invitations.done.resent",
  canceled: "organizations.invitations.done.canceled",
};

export default function Invitations() {
  const { t, lang } = useT();
  const location = useLocation();
  const { invitations, teams, canManage, grantable } = useLoaderData<typeof loader>();
  const state = useActionData<typeof action>();
  const format = new Intl.DateTimeFormat(lang, { dateStyle: "medium" });
  return (
    <section aria-labelledby="invitations-title">
      <h2 id="invitations-title">{t("organizations.invitations.title")}</h2>
      <DoneNotice outcomes={INVITATION_OUTCOMES} state={state} />
      <ErrorSummary state={state} labels={{ email: t("fields.email") }} />
      <table>
        <caption className="muted">
          {t("organizations.invitations.caption", { count: invitations.length })}
        </caption>
        <thead>
          <tr>
            <th scope="col">{t("fields.email")}</th>
            <th scope="col">{t("organizations.members.role")}</th>
            <th scope="col">{t("organizations.invitations.team")}</th>
            <th scope="col">{t("organizations.invitations.expires")}</th>
            <th scope="col">{t("organizations.invitations.mail")}</th>
            <th scope="col">{t("common.actions")}</th>
          </tr>
        </thead>
        <tbody>
          {invitations.map((invitation) => (
            <tr key={invitation.id}>
              <td>{invitation.email}</td>
              <td>{t(`organizations.roles.${invitation.role}`, { defaultValue: invitation.role })}</td>
              <td>{invitation.team ?? "—"}</td>
              <td>{format.format(new Date(invitation.expiresAt))}</td>
              <td data-testid="invitation-mail">
                <MailState state={invitation.mailState} />
              </td>
              <td>
                {canManage ? (
                  <Form method="post" className="row-actions">
                    <input type="hidden" name="invitationId" value={invitation.id} />
                    <input type="hidden" name="email" value={invitation.email} />
                    <input type="hidden" name="role" value={invitation.role} />
                    <button
                      type="submit"
                      name="intent"
                      value="resend"
                      className="button button-small button-secondary"
                    >
                      {t("organizations.invitations.resend")}
                      <span className="visually-hidden"> {invitation.email}</span>
                    </button>
                    <button
                      type="submit"
                      name="intent"
                      value="cancel"
                      className="button button-small button-danger"
                    >
                      {t("common.cancel")}
                      <span className="visually-hidden"> {invitation.email}</span>
                    </button>
                  </Form>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {canManage ? (
        <>
          <h3>{t("organizations.invitations.invite")}</h3>
          <Form method="post" noValidate key={location.key}>
            <Field name="email" type="email" label={t("fields.email")} state={state} />
            <div className="field">
              <label htmlFor="field-role">{t("organizations.members.role")}</label>
              <select id="field-role" name="role" defaultValue="member">
                {grantable.map((role) => (
                  <option key={role} value={role}>
                    {t(`organizations.roles.${role}`)}
                  </option>
                ))}
              </select>
            </div>
            {teams.length > 0 ? (
              <div className="field">
                <label htmlFor="field-teamId">{t("organizations.invitations.team")}</label>
                <select id="field-teamId" name="teamId" defaultValue="">
                  <option value="">{t("common.none")}</option>
                  {teams.map((team) => (
                    <option key={team.id} value={team.id}>
                      {team.name}
                    </option>
                  ))}
                </select>
              </div>
            ) : null}
            <Submit intent="invite">{t("organizations.invitations.send")}</Submit>
          </Form>
        </>
      ) : null}
    </section>
  );
}
