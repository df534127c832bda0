import type {
  Invitation,
  Member,
  MemberUser,
  Organization,
  Team,
  TeamMember,
} from "../../../contracts/organization-models.ts";
import type {
  InvitationDoc,
  MemberDoc,
  OrganizationDoc,
  TeamDoc,
  TeamMemberDoc,
  UserDoc,
} from "../../../db/documents.ts";

export type {
  Invitation,
  Member,
  MemberUser,
  MemberWithUser,
  Organization,
  Team,
  TeamMember,
} from "../../../contracts/organization-models.ts";

/** Metadata is stored as JSON text (SPEC §3); text that is not a JSON object reads as null. */
function parseMetadata(text: string | null): Record<string, unknown> | null {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

export function toOrganization(doc: OrganizationDoc): Organization {
  return {
    id: doc._id.toHexString(),
    name: doc.name,
    slug: doc.slug,
    logo: doc.logo,
    metadata: parseMetadata(doc.metadata),
    createdAt: doc.createdAt,
  };
}

export function toMember(doc: MemberDoc): Member {
  return {
    id: doc._id.toHexString(),
    organizationId: doc.organizationId.toHexString(),
    userId: doc.userId.toHexString(),
    role: doc.role,
    createdAt: doc.createdAt,
    teamId: doc.teamId ? doc.teamId.toHexString() : null,
  };
}

export function toMemberUser(doc: Pick<UserDoc, "_id" | "name" | "email" | "image">): MemberUser {
  return { id: doc._id.toHexString(), name: doc.name, email: doc.email, image: doc.image ?? null };
}

export function toInvitation(doc: InvitationDoc): Invitation {
  return {
    id: doc._id.toHexString(),
    organizationId: doc.organizationId.toHexString(),
    email: doc.email,
    role: doc.role,
    status: doc.status,
    teamId: doc.teamId,
    inviterId: doc.inviterId.toHexString(),
    expiresAt: doc.expiresAt,
    createdAt: doc.createdAt,
  };
}

export function toTeam(doc: TeamDoc): Team {
  return {
    id: doc._id.toHexString(),
    name: doc.name,
    organizationId: doc.organizationId.toHexString(),
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}

export function toTeamMember(doc: TeamMemberDoc): TeamMember {
  return {
    id: doc._id.toHexString(),
    teamId: doc.teamId.toHexString(),
    userId: doc.userId.toHexString(),
    createdAt: doc.createdAt,
  };
}
