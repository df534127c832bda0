import type { Collections } from "../../db/collections.ts";
import type {
  InvitationDoc,
  MemberDoc,
  OrganizationDoc,
  TeamDoc,
  TeamMemberDoc,
} from "../../db/documents.ts";
import type { StoredRows } from "../../db/stored-rows.ts";
import {
  deleteInvitationsWhere,
  insertInvitationsInBulk,
  invitationRowsForChecks,
} from "./invitations/store.ts";
import { deleteMembersWhere, insertMembersInBulk, memberRowsForChecks } from "./members/store.ts";
import { insertOrganizationsInBulk, organizationRowsForChecks } from "./organizations/store.ts";
import {
  deleteTeamRowsWhere,
  insertTeamMembersInBulk,
  insertTeamsInBulk,
  teamMemberRowsForChecks,
  teamRowsForChecks,
} from "./teams/store.ts";

/** The organization collections an operator's import writes (the CLI's `tessera import`). */
export interface ImportedOrganizationRows {
  organizations: OrganizationDoc;
  teams: TeamDoc;
  members: MemberDoc;
  teamMembers: TeamMemberDoc;
  invitations: InvitationDoc;
}

const WRITERS: {
  [K in keyof ImportedOrganizationRows]: (
    collections: Collections,
    docs: ImportedOrganizationRows[K][],
  ) => Promise<Set<number>>;
} = {
  organizations: insertOrganizationsInBulk,
  teams: insertTeamsInBulk,
  members: insertMembersInBulk,
  teamMembers: insertTeamMembersInBulk,
  invitations: insertInvitationsInBulk,
};

/**
 * Writes imported rows through their owner's bulk insert, which bumps the listings they change;
 * returns the positions a unique index refused.
 */
export function importOrganizationRows<K extends keyof ImportedOrganizationRows>(
  collections: Collections,
  collection: K,
  docs: ImportedOrganizationRows[K][],
): Promise<Set<number>> {
  return WRITERS[collection](collections, docs);
}

/** Rows an operator's repair (`tessera doctor --fix`) removes: `field` one of `values`. */
export type OrphanRows =
  | { collection: "members"; field: "userId" | "organizationId" }
  | { collection: "invitations"; field: "_id" | "organizationId"; pendingOnly?: boolean }
  | { collection: "teams"; field: "organizationId" }
  | { collection: "teamMembers"; field: "userId" | "teamId" };

/**
 * Deletes the rows through their owner, which bumps the listings they were part of; answers how
 * many went.
 */
export function deleteOrphanRows(
  collections: Collections,
  rows: OrphanRows,
  values: readonly unknown[],
): Promise<number> {
  switch (rows.collection) {
    case "members":
      return deleteMembersWhere(collections, rows.field, values);
    case "invitations":
      return deleteInvitationsWhere(collections, rows.field, values, rows.pendingOnly === true);
    default:
      return deleteTeamRowsWhere(collections, rows.collection, rows.field, values);
  }
}

const READERS: { [K in keyof ImportedOrganizationRows]: (collections: Collections) => StoredRows } = {
  organizations: organizationRowsForChecks,
  teams: teamRowsForChecks,
  members: memberRowsForChecks,
  teamMembers: teamMemberRowsForChecks,
  invitations: invitationRowsForChecks,
};

/** An operator's reads of an organization collection (`tessera doctor`, `tessera import`): its owner's view. */
export function readOrganizationRows(
  collections: Collections,
  collection: keyof ImportedOrganizationRows,
): StoredRows {
  return READERS[collection](collections);
}
