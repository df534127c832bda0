import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { getAuth } from "~/auth.server";
import { useT } from "~/lib/i18n";
import { requireAdmin } from "~/lib/session.server";

export const handle = { title: "admin.tabs.dashboard" };

const DAYS = 14;

// The dashboard reads through the admin API: users newest first (sign-ups per day over two weeks,
// users by role), and the sessions of each user for the active-session count.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const auth = await getAuth();
  const headers = request.headers;
  const users = [];
  for (let offset = 0; ; offset += 100) {
    const { data } = await auth.api.listUsers({
      query: { limit: 100, offset, sortBy: "createdAt", sortDirection: "desc" },
      headers,
    });
    users.push(...data.users);
    if (users.length >= data.total || data.users.length === 0 || users.length >= 1000) break;
  }
  const today = new Date();
  today.setUTCHours(0, 0, 0, 0);
  const days = Array.from({ length: DAYS }, (_, index) => {
    const day = new Date(today.getTime() - (DAYS - 1 - index) * 86_400_000);
    return { day: day.toISOString().slice(0, 10), count: 0 };
  });
  for (const user of users) {
    const slot = days.find((entry) => entry.day === user.createdAt.toISOString().slice(0, 10));
    if (slot) slot.count++;
  }
  const byRole: Record<string, number> = {};
  for (const user of users) for (const role of user.role.split(",")) byRole[role] = (byRole[role] ?? 0) + 1;
  let activeSessions = 0;
  const now = Date.now();
  for (const user of users.slice(0, 200)) {
    const { data } = await auth.api.listUserSessions({ body: { userId: user.id }, headers });
    activeSessions += data.sessions.filter((session) => session.expiresAt.getTime() > now).length;
  }
  return {
    total: users.length,
    banned: users.filter((user) => user.banned).length,
    days,
    byRole: Object.entries(byRole).sort((a, b) => b[1] - a[1]),
    activeSessions,
  };
}

export default function Dashboard() {
  const { t, lang } = useT();
  const data = useLoaderData<typeof loader>();
  const max = Math.max(1, ...data.days.map((day) => day.count));
  const width = 560;
  const height = 160;
  const bar = width / data.days.length;
  const format = new Intl.DateTimeFormat(lang, { day: "numeric", month: "short", timeZone: "UTC" });
  return (
    <section aria-labelledby="dashboard-title">
      <h2 id="dashboard-title">{t("admin.dashboard.title")}</h2>
      <div className="stats">
        <p className="stat">
          <strong>{data.total}</strong> {t("admin.dashboard.users", { count: data.total })}
        </p>
        <p className="stat">
          <strong>{data.activeSessions}</strong>{" "}
          {t("admin.dashboard.sessions", { count: data.activeSessions })}
        </p>
        <p className="stat">
          <strong>{data.banned}</strong> {t("admin.dashboard.banned", { count: data.banned })}
        </p>
      </div>
      <h3 id="signups-title">{t("admin.dashboard.signups", { days: DAYS })}</h3>
      <svg
        className="chart"
        viewBox={`0 -20 ${width} ${height + 50}`}
        role="img"
        aria-labelledby="signups-chart-title signups-desc"
        width="100%"
      >
        <title id="signups-chart-title">{t("admin.dashboard.signups", { days: DAYS })}</title>
        <desc id="signups-desc">
          {data.days.map((day) => `${format.format(new Date(day.day))}: ${day.count}`).join(", ")}
        </desc>
        {data.days.map((day, index) => {
          const h = (day.count / max) * height;
          return (
            <g key={day.day}>
              <rect x={index * bar + 4} y={height - h} width={bar - 8} height={h} />
              <text x={index * bar + bar / 2} y={height + 14} textAnchor="middle">
                {format.format(new Date(day.day))}
              </text>
              {day.count > 0 ? (
                <text x={index * bar + bar / 2} y={height - h - 4} textAnchor="middle">
                  {day.count}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <h3>{t("admin.dashboard.byRole")}</h3>
      <table>
        <thead>
          <tr>
            <th scope="col">{t("admin.users.role")}</th>
            <th scope="col">{t("admin.dashboard.count")}</th>
          </tr>
        </thead>
        <tbody>
          {data.byRole.map(([role, count]) => (
            <tr key={role}>
              <td>{role}</td>
              <td>{count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
