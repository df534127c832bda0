import { type Session, sessionModel, type User } from "../../contracts/models.ts";
import type { SessionDoc, UserDoc } from "../../db/documents.ts";
import { toModelValue } from "../../db/model.ts";

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

/** `impersonatedBy` and `activeTeamId` only when set (contracts/models.ts sessionModel). */
export function toSession(doc: SessionDoc): Session {
  return toModelValue(sessionModel, doc);
}
