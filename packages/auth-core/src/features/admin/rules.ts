import { type AdminSession, type AdminUser, adminSessionModel } from "../../contracts/admin-models.ts";
import type { SessionDoc, UserDoc } from "../../db/documents.ts";
import { toModelValue } from "../../db/model.ts";
import { jsonDate } from "../../http/json-text.ts";
import { toUser } from "../session/index.ts";
import { parseRoleList } from "./access.ts";

/** The audit trail's actions live with the contracts (list-audit-events filters on them). */
export type { AuditAction } from "../../contracts/admin-fields.ts";

/** The API shapes live with the contracts, which a browser bundle can import. */
export type {
  AdminSession,
  AdminUser,
  AuditEvent,
  AuditEventList,
  ListUsersResult,
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

/**
 * `JSON.stringify(toAdminUser(doc, defaultRole))`, written directly: a page of list-users is 100
 * such objects, and building then stringifying them was most of the endpoint's own CPU time
 * Field order and the fields left out must stay those of toAdminUser and toUser
 * (rules.test.ts compares the two byte for byte, stored documents with odd or missing fields too).
 */
export function adminUserJson(doc: UserDoc, defaultRole: string): string {
  return (
    `{"id":"${doc._id.toHexString()}"${jsonField("email", doc.email)}` +
    `${jsonField("emailVerified", doc.emailVerified)}${jsonField("name", doc.name)}` +
    `,"image":${doc.image == null ? "null" : jsonValue(doc.image)}` +
    (doc.language ? jsonField("language", doc.language) : "") +
    (doc.twoFactorEnabled ? ',"twoFactorEnabled":true' : "") +
    `${jsonField("createdAt", doc.createdAt)}${jsonField("updatedAt", doc.updatedAt)}` +
    `,"role":${JSON.stringify(parseRoleList(doc.role, defaultRole).join(","))}` +
    `,"banned":${doc.banned === true},"banReason":${doc.banReason == null ? "null" : jsonValue(doc.banReason)}` +
    `,"banExpires":${doc.banExpires == null ? "null" : jsonValue(doc.banExpires)}}`
  );
}

/** `,"name":value` as JSON.stringify writes an object's field after the first: nothing when undefined. */
function jsonField(name: string, value: unknown): string {
  return value === undefined ? "" : `,"${name}":${jsonValue(value)}`;
}

function jsonValue(value: unknown): string {
  return value instanceof Date ? jsonDate(value) : (JSON.stringify(value) ?? "null");
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
