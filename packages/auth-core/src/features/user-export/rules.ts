/**
 * Pure decisions of the user's data export (contracts/user-export.ts): which stored fields reach the
 * data subject. Secrets never do; neither do staff details of what others did to the user
 * (docs/security.md "The user's own data").
 */

import type { Passkey } from "../../contracts/passkey.ts";
import {
  type ExportedAccount,
  type ExportedApiKey,
  type ExportedAuditEvent,
  type ExportedPasskey,
  type ExportedSession,
  type ExportedUser,
  exportedAccountModel,
  exportedApiKeyModel,
  exportedAuditEventModel,
  exportedPasskeyModel,
  exportedSessionModel,
  exportedUserModel,
} from "../../contracts/user-export.ts";
import type { AccountDoc, ApiKeyDoc, AuditEventDoc, SessionDoc, UserDoc } from "../../db/documents.ts";
import type { ObjectId } from "../../db/ids.ts";
import { toModelValue } from "../../db/model.ts";
import type { DeclaredUserDoc } from "../session/index.ts";

/**
 * The facts of an event done to the user by someone else that tell the user what changed for them,
 * by action. Everything else in `details` is left out: the acting administrator's session id, the
 * administrator an impersonation or revoked session belonged to, counts of the administrator's own
 * sessions. An action not listed here exports no details at all, so a new action leaks nothing
 * until someone decides what of it is the user's.
 * @internal Exported for its unit test (rules.test.ts).
 */
export const DETAILS_SHOWN_TO_SUBJECT: Readonly<Record<string, readonly string[]>> = {
  "user.create": ["role"],
  "user.ban": ["banExpires"],
  "user.set-role": ["from", "to"],
  "user.update": ["fields", "fromEmail", "toEmail", "fromEmailVerified", "toEmailVerified"],
  "user.set-password": ["sessionsRevoked", "apiKeysRevoked"],
  "session.revoke": ["sessionId"],
  "session.revoke-all": ["sessions", "apiKeys"],
  "organization.add-member": ["organizationId", "role"],
  "organization.remove-member": ["organizationId", "role"],
  "organization.set-member-role": ["organizationId", "before", "after"],
  "organization.add-team-member": ["organizationId", "teamId", "role"],
  "organization.remove-team-member": ["organizationId", "teamId"],
  "organization.set-team-member-role": ["organizationId", "teamId", "role", "previousRole"],
  // Which organization a verified address joined, through which domain, as what.
  "organization.domain-auto-join": ["organizationId", "domain", "role"],
  // The user's own sign-ins (actor and subject alike): what they did is theirs.
  "organization.sso-break-glass": ["organizationId", "path"],
  "organization.sso-sign-in": ["organizationId", "providerId", "newUser", "joined"],
  // Which of the user's passkeys went, by the id and name they know it by (as in the export's passkeys).
  "passkey.remove": ["passkeyId", "name"],
};

/** Whether the user did this themselves (an operator's event, with `actor` set, never is). */
function isPerformedBy(event: AuditEventDoc, userId: ObjectId): boolean {
  return !event.actor && event.actorId !== null && event.actorId.equals(userId);
}

/**
 * An audit event as its subject sees it: all of it when they did it themselves; otherwise what
 * happened and when — no actor, no IP address or user agent, no reason (a ban's reason, an
 * impersonation's justification: internal notes), and only the listed facts of `details`.
 */
export function toExportedAuditEvent(event: AuditEventDoc, userId: ObjectId): ExportedAuditEvent {
  if (isPerformedBy(event, userId))
    return toModelValue(exportedAuditEventModel, event, { performedBySelf: true });
  const details = pickDetails(event.details, DETAILS_SHOWN_TO_SUBJECT[event.action] ?? []);
  const told = { ...event, reason: null, ipAddress: null, userAgent: null, details };
  return toModelValue(exportedAuditEventModel, told, { performedBySelf: false });
}

function pickDetails(
  details: Record<string, unknown> | null,
  keys: readonly string[],
): Record<string, unknown> | null {
  if (!details || keys.length === 0) return null;
  const picked: Record<string, unknown> = {};
  for (const key of keys) if (Object.hasOwn(details, key)) picked[key] = details[key];
  return Object.keys(picked).length > 0 ? picked : null;
}

/** The user row without `banReason` (contracts/user-export.ts exportedUserModel), its role as stored. */
export function toExportedUser(doc: UserDoc, defaultRole: string): ExportedUser {
  return toModelValue(exportedUserModel, doc as DeclaredUserDoc, { role: doc.role ?? defaultRole });
}

/** An account: whether a password hash or provider tokens are held, never them. */
export function toExportedAccount(doc: AccountDoc): ExportedAccount {
  return toModelValue(exportedAccountModel, doc, {
    hasPassword: doc.password !== null,
    hasProviderTokens: Boolean(doc.accessToken ?? doc.refreshToken ?? doc.idToken),
  });
}

/**
 * The user's own sessions, without their tokens. An administrator's impersonation session is left
 * out: its IP address and user agent are the administrator's.
 */
export function toExportedSessions(docs: readonly SessionDoc[]): ExportedSession[] {
  return docs.filter((doc) => !doc.impersonatedBy).map((doc) => toModelValue(exportedSessionModel, doc));
}

/** An API key: its name and visible start, never its hash. */
export function toExportedApiKey(doc: ApiKeyDoc): ExportedApiKey {
  return toModelValue(exportedApiKeyModel, doc);
}

/** The view's fields of the passkey's API value (the transports as a list): no key listed twice. */
export function toExportedPasskey(passkey: Passkey): ExportedPasskey {
  const transports = passkey.transports === "" ? [] : passkey.transports.split(",");
  return Object.fromEntries(
    exportedPasskeyModel.map(({ key }) => [key, key === "transports" ? transports : passkey[key]]),
  ) as ExportedPasskey;
}
