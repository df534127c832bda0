import type { Session, User } from "../../contracts/models.ts";
import type { SessionDoc, UserDoc } from "../../db/documents.ts";

export type { Session, User } from "../../contracts/models.ts";

/** What endpoints see of the signed-in caller (declared in http/, which knows no feature). */
export type { SessionWithUser } from "../../http/caller.ts";

export function toUser(doc: UserDoc): User {
  return {
    id: doc._id.toHexString(),
    email: doc.email,
    emailVerified: doc.emailVerified,
    name: doc.name,
    image: doc.image ?? null,
    // Absent until the user chooses one, so the shape of every other user is unchanged.
    ...(doc.language ? { language: doc.language as NonNullable<User["language"]> } : {}),
    ...(doc.twoFactorEnabled ? { twoFactorEnabled: true as const } : {}),
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}

export function toSession(doc: SessionDoc): Session {
  const session: Session = {
    id: doc._id.toHexString(),
    userId: doc.userId.toHexString(),
    token: doc.token,
    expiresAt: doc.expiresAt,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    ipAddress: doc.ipAddress,
    userAgent: doc.userAgent,
    activeOrganizationId: doc.activeOrganizationId,
    // Absent on ordinary sessions, so their shape is unchanged; a client shows "stop impersonating".
    ...(doc.impersonatedBy ? { impersonatedBy: String(doc.impersonatedBy) } : {}),
  };
  if (doc.activeTeamId) session.activeTeamId = doc.activeTeamId;
  return session;
}
