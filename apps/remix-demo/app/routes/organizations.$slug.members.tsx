import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { canActOnMember, findGrantableRoles, hasPermission } from "@tessera/auth-core/roles";
import { getAuth } from "~/auth.server";
import { DoneNotice, ErrorSummary } from "~/components/form";
import { failure, field, readForm, redirectWith } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { readRoleTable, requireOrganization } from "~/lib/org.server";

export const handle = { title: "organizations.tabs.members" };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { organization, roles, viewer } = await requireOrganization(request, params.slug);
  // Only the actions the core would allow are offered (an admin gets none on an owner's row).
  const { table, creatorRole } = await readRoleTable();
  return {
    slug: organization.slug,
    me: viewer.user.id,
    grantable: findGrantableRoles(roles, table, creatorRole),
    members: organization.members.map((member) => {
      // The core's own checks of update-member-role and remove-member (@tessera/auth-core/roles).
      const reachable =
        member.userId !== viewer.user.id && canActOnMember(roles, member.role, table, creatorRole);
      return {
        id: member.id,
        userId: member.userId,
        name: member.user.name,
        email: member.user.email,
        role: member.role,
        canChangeRole: reachable && hasPermission(roles, { member: ["update"] }, table),
        canRemove: reachable && hasPermission(roles, { member: ["delete"] }, table),
      };
    }),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const form = await readForm(request);
  const { organization } = await requireOrganization(request, params.slug);
  const auth = await getAuth();
  const intent = field(form, "intent");
  const organizationId = organization.id;
  try {
    if (intent === "leave") {
      const result = await auth.api.leaveOrganization({ body: { organizationId }, headers: request.headers });
      return redirectWith("/organizations", result.headers);
    }
    if (intent === "remove") {
      await auth.api.removeMember({
        body: { memberIdOrEmail: field(form, "memberId"), organizationId },
        headers: request.headers,
      });
    } else {
      await auth.api.updateMemberRole({
        body: { memberId: field(form, "memberId"), role: field(form, "role"), organizationId },
        headers: request.headers,
      });
    }
    return redirectWith(`/organizations/${organization.slug}/members?done=1`);
  } catch (error) {
    return failure(error, form);
  }
}

export default function Members() {
  const { t } = useT();
  const { members, grantable, me } = useLoaderData<typeof loader>();
  const state = useActionData<typeof action>();
  return (
    <section aria-labelledby="members-title">
      <h2 id="members-title">{t("organizations.members.title")}</h2>
      <DoneNotice outcomes={{ 1: "common.saved" }} state={state} />
      <ErrorSummary state={state} />
      <table>
        <caption className="muted">{t("organizations.members.caption", { count: members.length })}</caption>
        <thead>
          <tr>
            <th scope="col">{t("fields.name")}</th>
            <th scope="col">{t("fields.email")}</th>
            <th scope="col">{t("organizations.members.role")}</th>
            <th scope="col">{t("common.actions")}</th>
          </tr>
        </thead>
        <tbody>
          {members.map((member) => (
            <tr key={member.id}>
              <td>{member.name}</td>
              <td>{member.email}</td>
              <td>
                {member.canChangeRole ? (
                  <Form method="post" className="row-actions">
                    <input type="hidden" name="memberId" value={member.id} />
                    <label className="visually-hidden" htmlFor={`role-${member.id}`}>
                      {t("organizations.members.roleOf", { name: member.name })}
                    </label>
                    <select id={`role-${member.id}`} name="role" defaultValue={member.role}>
                      {grantable.map((role) => (
                        <option key={role} value={role}>
                          {t(`organizations.roles.${role}`, { defaultValue: role })}
                        </option>
                      ))}
                    </select>
                    <button
                      type="submit"
                      name="intent"
                      value="role"
                      className="button button-small button-secondary"
                    >
                      {t("organizations.members.changeRole")}
                      <span className="visually-hidden"> {member.name}</span>
                    </button>
                  </Form>
                ) : (
                  member.role
                    .split(",")
                    .map((role) => t(`organizations.roles.${role}`, { defaultValue: role }))
                    .join(", ")
                )}
              </td>
              <td>
                {member.userId === me ? (
                  <Form method="post">
                    <button
                      type="submit"
                      name="intent"
                      value="leave"
                      className="button button-small button-secondary"
                    >
                      {t("organizations.members.leave")}
                    </button>
                  </Form>
                ) : member.canRemove ? (
                  <Form method="post">
                    <input type="hidden" name="memberId" value={member.id} />
                    <button
                      type="submit"
                      name="intent"
                      value="remove"
                      className="button button-small button-danger"
                    >
                      {t("common.remove")}
                      <span className="visually-hidden"> {member.name}</span>
                    </button>
                  </Form>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
