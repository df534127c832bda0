import {
  type AdminSession,
  type AdminUser,
  adminSessionModel,
  adminUserModel,
} from "../../contracts/admin-models.ts";
import type { SessionDoc, UserDoc } from "../../db/documents.ts";
import { toModelValue, writeModelJson } from "../../db/model.ts";
import type { DeclaredUserDoc } from "../session/index.ts";
import { parseRoleList } from "./access.ts";

/** The audit trail's actions live with the contracts (list-audit-events filters on them). */
export type { AuditAction } from "../../contracts/admin-fields.ts";

/** The API shapes live with the contracts, which a browser bundle can import. */
export type {
  AdminSession,
  AdminUser,
  AuditEventList,
  ListUsersResult,
} from "../../contracts/admin-models.ts";

export function toAdminUser(doc: UserDoc, defaultRole: string): AdminUser {
  return toModelValue(adminUserModel, doc as DeclaredUserDoc, { role: adminRoleOf(doc, defaultRole) });
}

/**
 * `JSON.stringify(toAdminUser(doc, defaultRole))`, written directly: a page of list-users is 100
 * such objects, and building then stringifying them was most of the endpoint's own CPU time.
 */
export function adminUserJson(doc: UserDoc, defaultRole: string): string {
  const computed = { role: adminRoleOf(doc, defaultRole) };
  try {
    return writeModelJson(adminUserModel, doc as DeclaredUserDoc, computed);
  } catch {
    // A date stored by hand as something else: written as JSON.stringify writes it, so one odd row
    // does not fail the page (the writer's dates assume Date values).
    return JSON.stringify(toModelValue(adminUserModel, doc as DeclaredUserDoc, computed));
  }
}

/** The user's roles as the admin area answers them: comma separated, the default role when none is stored. */
function adminRoleOf(doc: UserDoc, defaultRole: string): string {
  return parseRoleList(doc.role, defaultRole).join(",");
}

export function toAdminSession(doc: SessionDoc): AdminSession {
  return toModelValue(adminSessionModel, doc);
}

/** Null: a permanent ban. */
export function banExpiry(now: Date, expiresInSeconds: number | undefined): Date | null {
  return expiresInSeconds === undefined ? null : new Date(now.getTime() + expiresInSeconds * 1000);
}

/** Roles are stored comma separated; one name per entry, no duplicates. */
export function normaliseRoleInput(role: string | readonly string[]): string[] {
  const names = (typeof role === "string" ? [role] : role).map((name) => name.trim());
  return [...new Set(names)];
}

/** Every name is a configured role, non-empty, without a comma. */
export function areKnownRoles(names: readonly string[], known: Readonly<Record<string, unknown>>): boolean {
  return names.length > 0 && names.every((name) => name.length > 0 && Object.hasOwn(known, name));
}

export { isBanActive, LIFTED_BAN } from "../users/index.ts";
