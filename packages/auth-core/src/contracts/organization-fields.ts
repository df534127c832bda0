import { z } from "zod";
import { parseRoles } from "./role-list.ts";
import { userURLField } from "./schemas.ts";

/**
 * Field schemas of the organization endpoints (zod only: contract modules import them). Ids are
 * strings checked by parseId where they are used (a malformed id answers like one that names
 * nothing, never reaching the database).
 */
export const idField = z.string().min(1).max(64);
export const organizationNameField = z.string().trim().min(1).max(256);
/**
 * Slugs are trimmed and lower-cased before the unique index sees them, so "Acme" and " acme " are the
 * same organization (docs/security.md); letters, digits and - _ . only.
 */
export const slugField = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.string().regex(/^[a-z0-9](?:[a-z0-9._-]{0,98}[a-z0-9])?$/));
export const logoField = userURLField;
/** A record, stored as JSON text; bounded so one organization cannot bloat every read. */
export const metadataField = z
  .record(z.string(), z.unknown())
  .refine((value) => JSON.stringify(value).length <= 8192, "metadata too large");

// The role fields below normalise with it; re-exported for the contracts that name it.

/** A role or several: "admin", "admin,member" or ["admin", "member"]; at least one. */
export const roleField = z
  .union([z.string().max(256), z.array(z.string().max(64)).max(16)])
  .transform((value) => parseRoles(value))
  .refine((roles) => roles.length > 0, "at least one role");
/** Team ids for an invitation or member: one id, a comma separated list, or an array. */
export const teamIdsField = z
  .union([z.string().max(1024), z.array(idField).max(16)])
  .transform((value) => parseRoles(value));
/** a team name has at least 1 character. */
export const teamNameField = z.string().trim().min(1).max(256);
/** resource → actions, as has-permission asks them. */
export const permissionsField = z.record(
  z.string().min(1).max(64),
  z.array(z.string().min(1).max(64)).max(32),
);

/** Query numbers arrive as strings over HTTP and as numbers from server code. */
export const queryInt = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** Listings never load more than a page. */
export const PAGE_MAX = 100;

/** `limit` (1–100, default 100) and `offset` of every paged organization listing. */
export const pageQueryFields = {
  limit: queryInt(1, PAGE_MAX).default(PAGE_MAX),
  offset: queryInt(0, 1_000_000).default(0),
};
