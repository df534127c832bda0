import type { Migration } from "./types.ts";

/**
 * Indexes behind the admin area's per-request queries (features/admin): the audit trail's filters
 * (newest first, by actor or subject), list-users' default sort, and the impersonation sessions an
 * admin started (revoked when the admin is demoted, banned or removed — docs/security.md).
 */
export const adminIndexes: Migration = {
  id: "0004-admin-indexes",
  async up({ users, sessions, auditEvents }) {
    await users.createIndex({ createdAt: 1 }, { name: "createdAt" });
    await sessions.createIndex({ impersonatedBy: 1 }, { name: "impersonatedBy" });
    await auditEvents.createIndex({ createdAt: -1 }, { name: "createdAt" });
    await auditEvents.createIndex({ actorId: 1, createdAt: -1 }, { name: "actorId_createdAt" });
    await auditEvents.createIndex({ subjectId: 1, createdAt: -1 }, { name: "subjectId_createdAt" });
  },
};
