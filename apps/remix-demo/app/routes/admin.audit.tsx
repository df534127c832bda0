import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { AUDIT_ACTIONS, type AuditAction } from "@tessera/auth-core";
import { getAuth } from "~/auth.server";
import { type AuditRowView, AuditTable } from "~/components/activity-tables";
import { useT } from "~/lib/i18n";
import { requireAdmin } from "~/lib/session.server";

export const handle = { title: "admin.tabs.audit" };

const PAGE_SIZE = 20;

function isAuditAction(value: string): value is AuditAction {
  return (AUDIT_ACTIONS as readonly string[]).includes(value);
}

// Actor, target and action are filtered (and pages counted) by the API, so the filters work with
// JavaScript off and every page holds PAGE_SIZE matching events.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const actor = params.get("actor") ?? "";
  const subject = params.get("subject") ?? "";
  const action = params.get("action") ?? "";
  const page = Math.max(1, Number.parseInt(params.get("page") ?? "1", 10) || 1);
  const query = { actor, subject, action, page };
  // The select offers only the known actions; any other value (a typed URL) is the form's error.
  const auditAction = action === "" ? undefined : isAuditAction(action) ? action : null;
  if (auditAction === null)
    return data(
      { query, actions: AUDIT_ACTIONS, actionError: true, pages: 1, total: 0, events: [] as AuditRowView[] },
      { status: 400 },
    );
  const auth = await getAuth();
  const headers = request.headers;
  const idOf = async (value: string) => {
    if (!value) return undefined;
    if (/^[0-9a-f]{24}$/i.test(value)) return value;
    const { data } = await auth.api.listUsers({
      query: { searchValue: value, searchField: "email", searchOperator: "contains", limit: 1 },
      headers,
    });
    return data.users[0]?.id ?? "000000000000000000000000";
  };
  const [actorId, subjectId] = await Promise.all([idOf(actor), idOf(subject)]);
  const { data: list } = await auth.api.listAuditEvents({
    query: {
      ...(actorId ? { actorId } : {}),
      ...(subjectId ? { subjectId } : {}),
      ...(auditAction ? { action: auditAction } : {}),
      limit: PAGE_SIZE,
      offset: (page - 1) * PAGE_SIZE,
    },
    headers,
  });
  const ids = [
    ...new Set(list.events.flatMap((event) => [event.actorId, event.subjectId]).filter(Boolean)),
  ] as string[];
  const names: Record<string, string> = {};
  await Promise.all(
    ids.map(async (id) => {
      const user = await auth.api.getUser({ query: { id }, headers }).catch(() => null);
      names[id] = user ? user.data.email : id;
    }),
  );
  const events: AuditRowView[] = list.events.map((event) => ({
    id: event.id,
    action: event.action,
    actor: event.actorId ? (names[event.actorId] ?? event.actorId) : "—",
    subject: event.subjectId ? (names[event.subjectId] ?? event.subjectId) : "—",
    reason: event.reason,
    createdAt: event.createdAt.toISOString(),
  }));
  return {
    query,
    actions: AUDIT_ACTIONS,
    actionError: false,
    pages: Math.max(1, Math.ceil(list.total / PAGE_SIZE)),
    total: list.total,
    events,
  };
}

export default function AuditLog() {
  const { t } = useT();
  const { query, actions, actionError, events, pages, total } = useLoaderData<typeof loader>();
  const href = (page: number) =>
    `/admin/audit?${new URLSearchParams({ actor: query.actor, subject: query.subject, action: query.action, page: String(page) })}`;
  return (
    <section aria-labelledby="audit-title">
      <h2 id="audit-title">{t("admin.audit.title")}</h2>
      <Form method="get" className="filters" aria-label={t("admin.audit.filters")}>
        <div className="field">
          <label htmlFor="audit-actor">{t("admin.audit.actor")}</label>
          <input id="audit-actor" name="actor" defaultValue={query.actor} />
        </div>
        <div className="field">
          <label htmlFor="audit-subject">{t("admin.audit.subject")}</label>
          <input id="audit-subject" name="subject" defaultValue={query.subject} />
        </div>
        <div className="field">
          <label htmlFor="audit-action">{t("admin.audit.action")}</label>
          <select
            id="audit-action"
            name="action"
            defaultValue={actionError ? "" : query.action}
            aria-invalid={actionError ? true : undefined}
            aria-describedby={actionError ? "audit-action-error" : undefined}
          >
            <option value="">{t("admin.users.filters.all")}</option>
            {actions.map((action) => (
              <option key={action} value={action}>
                {action}
              </option>
            ))}
          </select>
          {actionError ? (
            <p className="field-error" id="audit-action-error">
              {t("admin.audit.unknownAction")}
            </p>
          ) : null}
        </div>
        <button type="submit" className="button">
          {t("admin.users.apply")}
        </button>
      </Form>
      <AuditTable rows={events} caption={t("admin.audit.caption", { count: total })} showReason />
      {events.length === 0 ? <p>{t("admin.audit.empty")}</p> : null}
      <nav className="pagination" aria-label={t("admin.users.pages")}>
        {query.page > 1 ? <Link to={href(query.page - 1)}>{t("common.previous")}</Link> : null}
        <span>{t("common.pageOf", { page: query.page, pages })}</span>
        {query.page < pages ? <Link to={href(query.page + 1)}>{t("common.next")}</Link> : null}
      </nav>
    </section>
  );
}
