import type { Migration } from "./types.ts";

/**
 * An organization's audit trail (`/organization/list-audit-events`, features/admin
 * findOrganizationAuditEvents): its rows newest first. Rows about an organization name it in
 * `details.organizationId`, the listing's one condition every query has.
 */
export const organizationAuditIndex: Migration = {
  id: "0021-organization-audit-index",
  async up({ auditEvents }) {
    await auditEvents.createIndex(
      { "details.organizationId": 1, createdAt: -1 },
      { name: "organizationId_createdAt" },
    );
  },
};
