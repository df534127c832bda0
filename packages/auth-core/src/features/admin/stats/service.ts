import type { AuthContext } from "../../../context.ts";
import type { AdminStats } from "../../../contracts/admin-models.ts";
import { countPerDay, signUpDays, tallyRoles } from "./rules.ts";
import {
  countActivelyBannedUsers,
  countAllUsers,
  countUnexpiredSessions,
  countUsersByStoredRole,
  countVerifiedUsers,
  findSignUpDatesSince,
} from "./store.ts";

/**
 * The admin dashboard's totals over every user (get-admin-stats): six database commands run
 * together — four counts, one $group, and the bare sign-up dates of the last 30 days (store.ts says
 * why those are read rather than counted).
 */
export async function readAdminStats(auth: AuthContext): Promise<AdminStats> {
  const { collections } = auth;
  const now = auth.now();
  const days = signUpDays(now);
  const [totalUsers, bannedUsers, verifiedUsers, roleGroups, activeSessions, signUpDates] = await Promise.all(
    [
      countAllUsers(collections),
      countActivelyBannedUsers(collections, now),
      countVerifiedUsers(collections),
      countUsersByStoredRole(collections),
      countUnexpiredSessions(collections, now),
      findSignUpDatesSince(collections, days[0]!.from),
    ],
  );
  return {
    totalUsers,
    bannedUsers,
    verifiedUsers,
    usersByRole: tallyRoles(roleGroups, auth.options.admin.defaultRole),
    signUpsPerDay: countPerDay(days, signUpDates),
    activeSessions,
  };
}
