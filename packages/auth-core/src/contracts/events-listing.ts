import { z } from "zod";
import { MAX_PAGE_SIZE, queryInt } from "./admin-fields.ts";
import { defineContract } from "./contract.ts";
import { eventTypeField, type TesseraEvent, tesseraEventSchema } from "./events.ts";
import { idField } from "./organization-fields.ts";

/**
 * The event listings (features/events): newest first, a page at a time. `cursor` is the `nextCursor`
 * of the page before (the id of its last event); `since` an ISO 8601 time, the oldest events to list.
 */
export interface EventPage {
  events: TesseraEvent[];
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: string | null;
}

export const eventPageSchema: z.ZodType<EventPage> = z.strictObject({
  events: z.array(tesseraEventSchema),
  nextCursor: z.string().nullable(),
});

const eventQueryFields = {
  type: eventTypeField.optional(),
  since: z.iso.datetime({ offset: true }).optional(),
  cursor: z
    .string()
    .regex(/^evt_[0-9a-f]{28}$/)
    .optional(),
  limit: queryInt.pipe(z.number().int().min(1).max(MAX_PAGE_SIZE)).optional(),
  /** The events about one user (their `userId`): a member's changes on Organization → Activity. */
  userId: idField.optional(),
};

export const listEventsContract = defineContract({
  name: "listEvents",
  method: "GET",
  path: "/admin/list-events",
  auth: "session",
  query: z.strictObject({ ...eventQueryFields, organizationId: idField.optional() }),
  response: eventPageSchema,
  errors: ["RESOURCE_ACCESS_NOT_ALLOWED", "NOT_ALLOWED_WHILE_IMPERSONATING"],
  summary: "Every event, newest first (at most 100 a page), by type, organization and time, for admins.",
  notes:
    "Needs the audit list permission. `?type&organizationId&userId&since&cursor&limit`; `nextCursor` pages on.",
  tags: ["events"],
});

export const listOrganizationEventsContract = defineContract({
  name: "listOrganizationEvents",
  method: "GET",
  path: "/organization/list-events",
  auth: "session",
  query: z.strictObject({ ...eventQueryFields, organizationId: idField.optional() }),
  response: eventPageSchema,
  errors: ["NO_ACTIVE_ORGANIZATION", "NOT_A_MEMBER_OF_ORGANIZATION", "RESOURCE_ACCESS_NOT_ALLOWED"],
  summary: "The organization's events, newest first (at most 100 a page), for its owners and admins.",
  notes: "Members who may update the organization read them. `?type&userId&since&cursor&limit`.",
  tags: ["events"],
});
