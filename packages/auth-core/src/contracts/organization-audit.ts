import { z } from "zod";
import { AUDIT_ACTIONS, MAX_PAGE_SIZE, queryInt, userIdField } from "./admin-fields.ts";
import { auditEventListSchema } from "./admin-models.ts";
import { defineContract } from "./contract.ts";
import { idField } from "./organization-fields.ts";

/**
 * An organization's own audit trail (Organization → Activity): the admin trail's rows about this
 * organization only, for the members who may update it (owners and admins by default).
 */
export const listOrganizationAuditEventsContract = defineContract({
  name: "listOrganizationAuditEvents",
  method: "GET",
  path: "/organization/list-audit-events",
  auth: "session",
  query: z.strictObject({
    organizationId: idField.optional(),
    /** A member who acted or was acted on. */
    userId: userIdField.optional(),
    action: z.enum(AUDIT_ACTIONS).optional(),
    /** ISO 8601: the oldest and newest rows to list, both included. */
    from: z.iso.datetime({ offset: true }).optional(),
    to: z.iso.datetime({ offset: true }).optional(),
    limit: queryInt.pipe(z.number().int().min(1).max(MAX_PAGE_SIZE)).optional(),
    offset: queryInt.optional(),
  }),
  response: auditEventListSchema,
  errors: ["NO_ACTIVE_ORGANIZATION", "NOT_A_MEMBER_OF_ORGANIZATION", "RESOURCE_ACCESS_NOT_ALLOWED"],
  summary:
    "The organization's audit trail, newest first (at most 100 a page), with the total, for its owners and admins.",
  notes:
    "Members who may update the organization read it. `?userId` (who acted or was acted on) `&action&from&to&limit&offset`.",
  tags: ["organization"],
});
