import type { Migration } from "./types.ts";

/**
 * Organizations: the unique rules of docs/decisions/ plus the claims that decide races
 * (member and team seats, the pending-invitation slot), and an index behind every per-request query
 * of features/organization.
 */
export const organizationIndexes: Migration = {
  id: "0002-organization-indexes",
  async up({ organizations, members, invitations, teams, teamMembers, sessions }) {
    await organizations.createIndex({ slug: 1 }, { unique: true, name: "slug_unique" });
    await members.createIndex({ organizationId: 1, userId: 1 }, { unique: true, name: "org_user_unique" });
    await members.createIndex({ organizationId: 1, seat: 1 }, { unique: true, name: "org_seat_unique" });
    await members.createIndex({ organizationId: 1, createdAt: 1 }, { name: "org_createdAt" });
    await members.createIndex({ userId: 1 }, { name: "userId" });
    await invitations.createIndex({ slot: 1 }, { unique: true, name: "slot_unique" });
    await invitations.createIndex({ organizationId: 1, createdAt: -1 }, { name: "org_createdAt" });
    await invitations.createIndex({ email: 1 }, { name: "email" });
    await teams.createIndex({ organizationId: 1 }, { name: "organizationId" });
    await teamMembers.createIndex({ teamId: 1, userId: 1 }, { unique: true, name: "team_user_unique" });
    await teamMembers.createIndex({ teamId: 1, seat: 1 }, { unique: true, name: "team_seat_unique" });
    await teamMembers.createIndex({ organizationId: 1, userId: 1 }, { name: "org_user" });
    await sessions.createIndex({ activeOrganizationId: 1 }, { name: "activeOrganizationId" });
  },
};
