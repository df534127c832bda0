import type { DayCount, RoleCount } from "../../../contracts/admin-models.ts";
import { parseRoleList } from "../access.ts";

/** The dashboard's sign-up chart covers this many UTC days, today included. */
const SIGN_UP_DAYS = 30;

const DAY_MS = 86_400_000;

/** The UTC days of the chart, oldest first: each day's start and its YYYY-MM-DD name. */
export function signUpDays(now: Date, days = SIGN_UP_DAYS): { day: string; from: Date; to: Date }[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: days }, (_, index) => {
    const from = new Date(today - (days - 1 - index) * DAY_MS);
    return { day: from.toISOString().slice(0, 10), from, to: new Date(from.getTime() + DAY_MS) };
  });
}

/** How many of `dates` fall on each day (days from signUpDays, oldest first). */
export function countPerDay(
  days: readonly { day: string; from: Date; to: Date }[],
  dates: readonly Date[],
): DayCount[] {
  const counts = new Map(days.map(({ day }) => [day, 0]));
  for (const date of dates) {
    const day = date.toISOString().slice(0, 10);
    const count = counts.get(day);
    if (count !== undefined) counts.set(day, count + 1);
  }
  return days.map(({ day }) => ({ day, count: counts.get(day) ?? 0 }));
}

/**
 * Users per role from the database's groups by stored value ("admin,user" → admin and user; absent
 * → the default role): a user with several roles counts under each. Most first, then by name.
 */
export function tallyRoles(
  groups: readonly { role: string | null; count: number }[],
  defaultRole: string,
): RoleCount[] {
  const counts = new Map<string, number>();
  for (const group of groups)
    for (const role of new Set(parseRoleList(group.role, defaultRole)))
      counts.set(role, (counts.get(role) ?? 0) + group.count);
  return [...counts]
    .map(([role, count]) => ({ role, count }))
    .sort((a, b) => b.count - a.count || a.role.localeCompare(b.role));
}
