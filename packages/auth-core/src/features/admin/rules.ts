import type { AdminSession, AdminUser } from "../../contracts/admin-models.ts";
import type { SessionDoc, UserDoc } from "../../db/documents.ts";
import { toSession, toUser } from "../session/index.ts";
import { parseRoleList } from "./access.ts";

/** The audit trail's actions live with the contracts (list-audit-events filters on them). */
export { AUDIT_ACTIONS, type AuditAction } from "../../contracts/admin-fields.ts";

/** The API shapes live with the contracts, which a browser bundle can import. */
export type {
  AdminSession,
  AdminSessionList,
  AdminUser,
  AdminUserResult,
  AuditEvent,
  AuditEventList,
  ListUsersResult,
  PermissionCheck,
} from "../../contracts/admin-models.ts";

export function toAdminUser(doc: UserDoc, defaultRole: string): AdminUser {
  return {
    ...toUser(doc),
    role: parseRoleList(doc.role, defaultRole).join(","),
    banned: doc.banned === true,
    banReason: doc.banReason ?? null,
    banExpires: doc.banExpires ?? null,
  };
}

export function toAdminSession(doc: SessionDoc): AdminSession {
  const { token: _token, ...session } = toSession(doc);
  return { ...session, impersonatedBy: doc.impersonatedBy ? String(doc.impersonatedBy) : null };
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

export { isBanActive, isBanExpired, LIFTED_BAN } from "../users/index.ts";
