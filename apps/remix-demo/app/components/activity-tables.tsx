import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useT } from "~/lib/i18n";

/** An audit row as the audit pages show it: who and whom named, never an id alone when known. */
export interface AuditRowView {
  id: string;
  action: string;
  actor: string;
  subject: string;
  createdAt: string;
  /** The reason given (a ban's, a role change's); shown by the pages that offer the column. */
  reason?: string | null | undefined;
}

/** An event as the listings show it: its ids named where the page knows the member. */
export interface EventRowView {
  id: string;
  type: string;
  createdAt: string;
  /** The organization's name (and slug), else its id (deleted since), null for none. */
  organization: string | null;
  user: string;
  /** Where the user's name links to (the admin's user page), when the page offers one. */
  userHref?: string | undefined;
  /** The event's data, pretty-printed JSON. */
  data: string;
}

/** A table that scrolls sideways on a phone, rather than widening the page. */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region takes keyboard focus so a keyboard can scroll it (WCAG 2.1.1).
    <section className="table-scroll" aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}

/**
 * The audit trail's table, for the admin's audit log (with the reason column) and an organization's
 * activity page: one table, one set of columns.
 */
export function AuditTable({
  rows,
  caption,
  showReason = false,
}: {
  rows: AuditRowView[];
  caption: string;
  showReason?: boolean;
}) {
  const { t, lang } = useT();
  const format = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "medium" });
  return (
    <TableScroll label={t("activity.auditTitle")}>
      <table data-testid="audit-table">
        <caption className="muted">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t("admin.audit.when")}</th>
            <th scope="col">{t("admin.audit.action")}</th>
            <th scope="col">{t("admin.audit.actorColumn")}</th>
            <th scope="col">{t("admin.audit.subjectColumn")}</th>
            {showReason ? <th scope="col">{t("admin.user.reason")}</th> : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              <td>{format.format(new Date(row.createdAt))}</td>
              <td>
                <code>{row.action}</code>
              </td>
              <td>{row.actor}</td>
              <td>{row.subject}</td>
              {showReason ? <td>{row.reason ?? ""}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

export function EventTable({ rows, showOrganization }: { rows: EventRowView[]; showOrganization: boolean }) {
  const { t, lang } = useT();
  const format = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "medium" });
  return (
    <TableScroll label={t("activity.eventsTitle")}>
      <table data-testid="event-table">
        <thead>
          <tr>
            <th scope="col">{t("admin.audit.when")}</th>
            <th scope="col">{t("activity.type")}</th>
            {showOrganization ? <th scope="col">{t("activity.organization")}</th> : null}
            <th scope="col">{t("activity.user")}</th>
            <th scope="col">{t("activity.data")}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              <td>{format.format(new Date(row.createdAt))}</td>
              <td>
                <code>{row.type}</code>
              </td>
              {showOrganization ? <td>{row.organization ?? "—"}</td> : null}
              <td>{row.userHref ? <Link to={row.userHref}>{row.user}</Link> : row.user}</td>
              <td className="event-data">
                {/* The fields changed, then the whole payload on demand: a row stays one line high. */}
                <details>
                  <summary>{dataSummary(row.data)}</summary>
                  <pre>{row.data}</pre>
                </details>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** The top-level field names of an event's data (and of its `changes`), as its one-line summary. */
function dataSummary(json: string): string {
  try {
    const data = JSON.parse(json) as Record<string, unknown>;
    const changes = data.changes && typeof data.changes === "object" ? Object.keys(data.changes) : [];
    const keys = Object.keys(data).filter((key) => key !== "changes");
    return [...keys, ...changes].join(", ") || "{}";
  } catch {
    return json.slice(0, 40);
  }
}

/** A day typed in a date field (YYYY-MM-DD), as the first or last instant of that UTC day; null if malformed. */
export function dayBound(day: string, end: "start" | "end"): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const at = new Date(`${day}T${end === "start" ? "00:00:00.000" : "23:59:59.999"}Z`);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}
