import {
  type Team,
  type TeamMember,
  teamMemberModel,
  teamModel,
} from "../../../contracts/organization-models.ts";
import type { TeamDoc, TeamMemberDoc } from "../../../db/documents.ts";
import { toModelValue } from "../../../db/model.ts";
import { teamRoleOf } from "./rules.ts";

export type { Team, TeamMember } from "../../../contracts/organization-models.ts";

/** The API value of a stored team (contracts/organization-models.ts teamModel). */
export function toTeam(doc: TeamDoc): Team {
  return toModelValue(teamModel, doc);
}

/** The API value of a stored team member (contracts/organization-models.ts teamMemberModel). */
export function toTeamMember(doc: TeamMemberDoc): TeamMember {
  return toModelValue(teamMemberModel, doc, { role: teamRoleOf(doc) });
}
