import { z } from "zod";
import { defineContract } from "./contract.ts";
import { statusTrueSchema } from "./models.ts";
import {
  idField,
  logoField,
  metadataField,
  organizationNameField,
  PAGE_MAX,
  pageQueryFields,
  permissionsField,
  queryInt,
  slugField,
} from "./organization-fields.ts";
import {
  createdOrganizationSchema,
  fullOrganizationSchema,
  organizationSchema,
} from "./organization-models.ts";

/**
 * The organization itself: create, read, update, delete, make active, ask about permissions. Members,
 * invitations and teams have their own modules (organization-members.ts, -invitations.ts, -teams.ts).
 */

export const createOrganizationContract = defineContract({
  name: "createOrganization",
  method: "POST",
  path: "/organization/create",
  // Server code may create for another user (`userId`) without a session; over HTTP one is required.
  auth: "optional",
  httpCredentials: ["session"],
  body: z.strictObject({
    name: organizationNameField,
    slug: slugField,
    userId: idField.optional(),
    logo: logoField.optional(),
    metadata: metadataField.optional(),
    keepCurrentActiveOrganization: z.boolean().optional(),
  }),
  response: createdOrganizationSchema,
  errors: [
    "UNAUTHORIZED",
    "NOT_AUTHENTICATED",
    "MEMBER_USER_NOT_FOUND",
    "ORGANIZATION_CREATION_NOT_ALLOWED",
    "ORGANIZATION_LIMIT_REACHED",
    "ORGANIZATION_ALREADY_EXISTS",
  ],
  summary: "Creates an organization with the caller as its owner and makes it the active one.",
  notes: "Server code may pass `userId`.",
  tags: ["organization"],
});

export const checkOrganizationSlugContract = defineContract({
  name: "checkOrganizationSlug",
  method: "POST",
  path: "/organization/check-slug",
  auth: "session",
  body: z.strictObject({ slug: slugField }),
  response: statusTrueSchema,
  errors: ["ORGANIZATION_SLUG_TAKEN"],
  summary: "Answers { status: true } when no organization has the slug yet.",
  tags: ["organization"],
});

export const listOrganizationsContract = defineContract({
  name: "listOrganizations",
  method: "GET",
  path: "/organization/list",
  auth: "session",
  query: z.strictObject({ ...pageQueryFields }),
  response: z.array(organizationSchema),
  errors: [],
  summary: "The organizations the caller is a member of, oldest membership first, one page.",
  tags: ["organization"],
});

export const getFullOrganizationContract = defineContract({
  name: "getFullOrganization",
  method: "GET",
  path: "/organization/get-full-organization",
  auth: "session",
  query: z.strictObject({
    organizationId: idField.optional(),
    organizationSlug: slugField.optional(),
    membersLimit: queryInt(1, PAGE_MAX).optional(),
  }),
  response: fullOrganizationSchema.nullable(),
  errors: ["NO_ACTIVE_ORGANIZATION", "NOT_A_MEMBER_OF_ORGANIZATION", "ORGANIZATION_NOT_FOUND"],
  summary:
    "The named or active organization with its first members, invitations and teams; null when none is named or active.",
  tags: ["organization"],
});

export const setActiveOrganizationContract = defineContract({
  name: "setActiveOrganization",
  method: "POST",
  path: "/organization/set-active",
  auth: "session",
  httpCredentials: ["session-cookie"],
  body: z.strictObject({
    organizationId: idField.nullable().optional(),
    organizationSlug: slugField.optional(),
  }),
  response: organizationSchema.nullable(),
  errors: [
    "NOT_AUTHORIZED",
    "NOT_A_MEMBER_OF_ORGANIZATION",
    "ORGANIZATION_NOT_FOUND",
    "SESSION_UPDATE_REFUSED",
  ],
  summary: "Makes an organization (by id or slug) the session's active one; null or neither clears it.",
  notes: "`null` clears.",
  tags: ["organization"],
});

export const updateOrganizationContract = defineContract({
  name: "updateOrganization",
  method: "POST",
  path: "/organization/update",
  auth: "session",
  body: z.strictObject({
    data: z.strictObject({
      name: organizationNameField.optional(),
      slug: slugField.optional(),
      logo: logoField.optional(),
      metadata: metadataField.optional(),
    }),
    organizationId: idField.optional(),
  }),
  response: organizationSchema,
  errors: [
    "NO_ACTIVE_ORGANIZATION",
    "NOT_A_MEMBER_OF_ORGANIZATION",
    "ORGANIZATION_UPDATE_NOT_ALLOWED",
    "ORGANIZATION_NOT_FOUND",
    "ORGANIZATION_SLUG_TAKEN",
  ],
  summary: "Changes the name, slug, logo or metadata of the named or active organization.",
  tags: ["organization"],
});

export const deleteOrganizationContract = defineContract({
  name: "deleteOrganization",
  method: "POST",
  path: "/organization/delete",
  auth: "session",
  // Not idField: a missing or empty id answers ORGANIZATION_ID_REQUIRED, checked by the handler.
  body: z.strictObject({ organizationId: z.string().max(64).optional() }),
  response: organizationSchema,
  errors: [
    "ORGANIZATION_DELETION_DISABLED",
    "ORGANIZATION_ID_REQUIRED",
    "NOT_A_MEMBER_OF_ORGANIZATION",
    "ORGANIZATION_UPDATE_NOT_ALLOWED",
    "ORGANIZATION_NOT_FOUND",
  ],
  summary: "Deletes an organization with its members, invitations and teams; answers what was deleted.",
  notes: "404 with `organization.disableOrganizationDeletion`.",
  tags: ["organization"],
});

/** has-permission's answer: a refusal is data, not an error (Better Auth's shape). */
export interface PermissionCheck {
  /** The access-control message of the error catalogue when refused, else null. */
  error: string | null;
  success: boolean;
}

const permissionCheckSchema: z.ZodType<PermissionCheck> = z.strictObject({
  error: z.string().nullable(),
  success: z.boolean(),
});

export const hasPermissionContract = defineContract({
  name: "hasPermission",
  method: "POST",
  path: "/organization/has-permission",
  auth: "session",
  // `permission` is the old name of `permissions`.
  body: z
    .strictObject({
      permissions: permissionsField.optional(),
      permission: permissionsField.optional(),
      organizationId: idField.optional(),
      /** With a team as context: the caller's role in that team counts too (teams/rules.ts). */
      teamId: idField.optional(),
    })
    .refine(
      (body) => body.permissions !== undefined || body.permission !== undefined,
      "permissions is required",
    ),
  response: permissionCheckSchema,
  errors: ["NO_ACTIVE_ORGANIZATION", "NOT_A_MEMBER_OF_ORGANIZATION", "TEAM_NOT_FOUND"],
  summary:
    "Whether the caller's roles in the named or active organization (and, with teamId, their role in that team) grant every requested action.",
  tags: ["organization"],
});
