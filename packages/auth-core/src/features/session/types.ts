import type { SessionDoc, UserDoc } from "../../db/documents.ts";

/** API shapes (SPEC §3) — ids as 24-hex strings. */
export interface User {
  id: string;
  email: string;
  emailVerified: boolean;
  name: string;
  image: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface Session {
  id: string;
  userId: string;
  token: string;
  expiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
  ipAddress: string | null;
  userAgent: string | null;
  activeOrganizationId: string | null;
  /** Only on an admin's impersonation session: the admin's user id (features/admin). */
  impersonatedBy?: string;
  /** Only when a team is active (organization teams, features/organization). */
  activeTeamId?: string;
}

/** What endpoints see of the signed-in caller: the documents, as read from the database or cache. */
export interface SessionWithUser {
  session: SessionDoc;
  user: UserDoc;
  /** True when it came from the signed cookie cache rather than the database. */
  fromCache: boolean;
}

export function toUser(doc: UserDoc): User {
  return {
    id: doc._id.toHexString(),
    email: doc.email,
    emailVerified: doc.emailVerified,
    name: doc.name,
    image: doc.image ?? null,
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
