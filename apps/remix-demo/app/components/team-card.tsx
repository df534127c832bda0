import { Form } from "@remix-run/react";
import { useT } from "~/lib/i18n";

interface TeamView {
  id: string;
  name: string;
  /** The organization's owners and admins, and this team's team admins. */
  canManageMembers: boolean;
  /** Null for someone outside the team who does not manage teams: the core lists it to neither. */
  members: { userId: string; name: string; role: string; isLocked: boolean }[] | null;
}

/**
 * One team on routes/organizations.$slug.teams.tsx: its members with their team roles; for those
 * who manage its members, a role picker and removal per member and an add form; for the
 * organization's managers (`canManageTeam`), rename and delete.
 */
export function TeamCard({
  team,
  teamRoles,
  people,
  canManageTeam,
}: {
  team: TeamView;
  teamRoles: string[];
  people: { userId: string; name: string }[];
  canManageTeam: boolean;
}) {
  const { t } = useT();
  const roleName = (role: string) =>
    t(`organizations.teams.roles.${role}`, {
      defaultValue: t(`organizations.roles.${role}`, { defaultValue: role }),
    });
  const { members } = team;
  const outside = people.filter((person) => !members?.some((member) => member.userId === person.userId));
  return (
    <fieldset data-team={team.name}>
      <legend>{team.name}</legend>
      {members === null ? (
        <p className="muted">{t("organizations.teams.membersHidden")}</p>
      ) : members.length === 0 ? (
        <p>{t("organizations.teams.noMembers")}</p>
      ) : (
        <table>
          <caption className="visually-hidden">
            {t("organizations.teams.caption", { team: team.name })}
          </caption>
          <thead>
            <tr>
              <th scope="col">{t("organizations.teams.member")}</th>
              <th scope="col">{t("organizations.teams.teamRole")}</th>
            </tr>
          </thead>
          <tbody>
            {members.map((member) => (
              <tr key={member.userId} data-member={member.name}>
                <th scope="row">{member.name}</th>
                <td>
                  {team.canManageMembers && !member.isLocked ? (
                    <Form method="post" className="row-actions">
                      <input type="hidden" name="teamId" value={team.id} />
                      <input type="hidden" name="userId" value={member.userId} />
                      <label htmlFor={`role-${team.id}-${member.userId}`} className="visually-hidden">
                        {t("organizations.teams.roleOf", { name: member.name, team: team.name })}
                      </label>
                      <select id={`role-${team.id}-${member.userId}`} name="role" defaultValue={member.role}>
                        {teamRoles.map((role) => (
                          <option key={role} value={role}>
                            {roleName(role)}
                          </option>
                        ))}
                      </select>
                      <button
                        type="submit"
                        name="intent"
                        value="set-role"
                        className="button button-small button-secondary"
                      >
                        {t("organizations.teams.setRole")}
                        <span className="visually-hidden"> {member.name}</span>
                      </button>
                      <button
                        type="submit"
                        name="intent"
                        value="remove-member"
                        className="button button-small button-danger"
                      >
                        {t("organizations.teams.removeMember")}
                        <span className="visually-hidden"> {member.name}</span>
                      </button>
                    </Form>
                  ) : (
                    <span data-testid="team-role">{roleName(member.role)}</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {team.canManageMembers && outside.length > 0 ? (
        <Form method="post" className="row-actions">
          <input type="hidden" name="teamId" value={team.id} />
          <label htmlFor={`member-${team.id}`} className="visually-hidden">
            {t("organizations.teams.pickMember", { name: team.name })}
          </label>
          <select id={`member-${team.id}`} name="userId">
            {outside.map((person) => (
              <option key={person.userId} value={person.userId}>
                {person.name}
              </option>
            ))}
          </select>
          <label htmlFor={`new-role-${team.id}`} className="visually-hidden">
            {t("organizations.teams.newMemberRole", { name: team.name })}
          </label>
          <select id={`new-role-${team.id}`} name="role" defaultValue="team-member">
            {teamRoles.map((role) => (
              <option key={role} value={role}>
                {roleName(role)}
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
        </Form>
      ) : null}
      {canManageTeam ? (
        <Form method="post" className="row-actions">
          <input type="hidden" name="teamId" value={team.id} />
          <label htmlFor={`rename-${team.id}`} className="visually-hidden">
            {t("organizations.teams.newName", { name: team.name })}
          </label>
          <input id={`rename-${team.id}`} name="name" defaultValue={team.name} />
          <button type="submit" name="intent" value="rename" className="button button-small button-secondary">
            {t("organizations.teams.rename")}
          </button>
          <button type="submit" name="intent" value="remove" className="button button-small button-danger">
            {t("common.remove")}
            <span className="visually-hidden"> {team.name}</span>
          </button>
        </Form>
      ) : null}
    </fieldset>
  );
}
