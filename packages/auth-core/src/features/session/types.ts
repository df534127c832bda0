import { publicUserModel, type Session, sessionModel, type User } from "../../contracts/models.ts";
import type { SessionDoc, UserDoc } from "../../db/documents.ts";
import { toModelValue } from "../../db/model.ts";

export type { Session, User } from "../../contracts/models.ts";

/** What endpoints see of the signed-in caller (declared in http/, which knows no feature). */
export type { SessionWithUser } from "../../http/caller.ts";

/**
 * The stored document as the user's declaration types it: the stored language is the code
 * update-user stored, answered as it is.
 */
export type DeclaredUserDoc = UserDoc & { language?: User["language"] };

/** `language` and `twoFactorEnabled` only when set (contracts/models.ts userModel). */
export function toUser(doc: UserDoc): User {
  return toModelValue(publicUserModel, doc as DeclaredUserDoc);
}

/** `impersonatedBy` and `activeTeamId` only when set (contracts/models.ts sessionModel). */
export function toSession(doc: SessionDoc): Session {
  return toModelValue(sessionModel, doc);
}
