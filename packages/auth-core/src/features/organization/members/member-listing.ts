import type { AuthContext } from "../../../context.ts";
import type { MemberDoc } from "../../../db/documents.ts";
import { type MemberWithUser, toMember, toMemberUser } from "../organizations/types.ts";
import { findMemberUsers } from "./store.ts";

/**
 * Members with their users' public fields: one `$in` read for the whole page (no $lookup on
 * FerretDB). A member whose user is gone is left out rather than failing the listing (Better Auth
 * complaint #2: "User not found for member").
 */
export async function withUsers(auth: AuthContext, members: readonly MemberDoc[]): Promise<MemberWithUser[]> {
  const users = await findMemberUsers(
    auth.collections,
    members.map((member) => member.userId),
  );
  const byId = new Map(users.map((user) => [user._id.toHexString(), user]));
  const listed: MemberWithUser[] = [];
  for (const member of members) {
    const user = byId.get(member.userId.toHexString());
    if (user) listed.push({ ...toMember(member), user: toMemberUser(user) });
  }
  return listed;
}
