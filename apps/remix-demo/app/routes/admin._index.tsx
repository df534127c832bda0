import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { getAuth } from "~/auth.server";
import { useT } from "~/lib/i18n";
import { requireAdmin } from "~/lib/session.server";

export const handle = { title: "admin.tabs.dashboard" };

// The totals come from the core's server-only stats, counted by the database over every user.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const auth = await getAuth();
  const { data } = await auth.api.getAdminStats({ headers: request.headers });
  return {
    total: data.totalUsers,
    banned: data.bannedUsers,
    verified: data.verifiedUsers,
    activeSessions: data.activeSessions,
    days: data.signUpsPerDay,
    byRole: data.usersByRole,
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
  const numbers = new Intl.NumberFormat(lang);
  const days = data.days.length;
  // Thirty bars: every fifth day (counting back from today) is named under the axis.
  const labelled = (index: number) => (days - 1 - index) % 5 === 0;
  return (
    <section aria-labelledby="dashboard-title">
      <h2 id="dashboard-title">{t("admin.dashboard.title")}</h2>
      <div className="stats">
        <p className="stat">
          <strong>{numbers.format(data.total)}</strong> {t("admin.dashboard.users", { count: data.total })}
        </p>
        <p className="stat">
          <strong>{numbers.format(data.activeSessions)}</strong>{" "}
          {t("admin.dashboard.sessions", { count: data.activeSessions })}
        </p>
        <p className="stat">
          <strong>{numbers.format(data.banned)}</strong> {t("admin.dashboard.banned", { count: data.banned })}
        </p>
        <p className="stat">
          <strong>{numbers.format(data.verified)}</strong>{" "}
          {t("admin.dashboard.verified", { count: data.verified })}
        </p>
      </div>
      <h3 id="signups-title">{t("admin.dashboard.signups", { days })}</h3>
      <svg
        className="chart"
        viewBox={`0 -20 ${width} ${height + 50}`}
        role="img"
        aria-labelledby="signups-chart-title signups-desc"
        width="100%"
      >
        <title id="signups-chart-title">{t("admin.dashboard.signups", { days })}</title>
        <desc id="signups-desc">
          {data.days.map((day) => `${format.format(new Date(day.day))}: ${day.count}`).join(", ")}
        </desc>
        {data.days.map((day, index) => {
          const h = (day.count / max) * height;
          return (
            <g key={day.day}>
              <rect x={index * bar + 2} y={height - h} width={bar - 4} height={h} />
              {labelled(index) ? (
                <text x={index * bar + bar / 2} y={height + 14} textAnchor="middle">
                  {format.format(new Date(day.day))}
                </text>
              ) : null}
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
          {data.byRole.map(({ role, count }) => (
            <tr key={role}>
              <td>{role}</td>
              <td>{numbers.format(count)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
