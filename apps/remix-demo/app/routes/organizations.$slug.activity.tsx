import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import {
  AUDIT_ACTIONS,
  type AuditAction,
  type EventType,
  ORGANIZATION_EVENT_TYPES,
} from "@tessera/auth-core";
import { getAuth } from "~/auth.server";
import { type AuditRowView, AuditTable, dayBound, EventTable } from "~/components/activity-tables";
import { ChoiceField, DayField } from "~/components/filter-fields";
import { WebhookRefusal } from "~/components/webhook-endpoints";
import { useT } from "~/lib/i18n";
import { requireOrganization } from "~/lib/org.server";
import { refusePage } from "~/lib/webhooks.server";

/**
 * Organization → Activity (issue 33 §3): the organization's audit trail (who changed what, filtered
 * by member, action and date) and its events (by type and date), a page at a time. Its owners and
 * admins read them; the core refuses anyone else, and the tab is not offered to them.
 */
export const handle = { title: "activity.title" };

const PAGE_SIZE = 20;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { organization } = await requireOrganization(request, params.slug);
  const url = new URL(request.url).searchParams;
  const query = {
    member: url.get("member") ?? "",
    action: url.get("action") ?? "",
    type: url.get("type") ?? "",
    from: url.get("from") ?? "",
    to: url.get("to") ?? "",
    page: Math.max(1, Number.parseInt(url.get("page") ?? "1", 10) || 1),
    cursor: url.get("cursor") ?? "",
  };
  const members = organization.members.map((member) => ({
    userId: member.userId,
    label: `${member.user.name} <${member.user.email}>`,
  }));
  const from = query.from ? dayBound(query.from, "start") : undefined;
  const to = query.to ? dayBound(query.to, "end") : undefined;
  const action = query.action === "" ? undefined : isOf<AuditAction>(AUDIT_ACTIONS, query.action);
  const type = query.type === "" ? undefined : isOf<EventType>(ORGANIZATION_EVENT_TYPES, query.type);
  const errors = {
    ...(from === null ? { from: "DATE_INVALID" } : {}),
    ...(to === null ? { to: "DATE_INVALID" } : {}),
    ...(action === null ? { action: "UNKNOWN_CHOICE" } : {}),
    ...(type === null ? { type: "UNKNOWN_CHOICE" } : {}),
  };
  const base = {
    refusal: null,
    slug: organization.slug,
    query,
    members,
    errors,
    // Only the organization's own actions and event types: the others never carry an organization.
    choices: {
      actions: AUDIT_ACTIONS.filter((name) => name.startsWith("organization.")),
      types: ORGANIZATION_EVENT_TYPES,
    },
  };
  if (Object.keys(errors).length > 0)
    return data(
      { ...base, audit: { rows: [], total: 0, pages: 1 }, events: { rows: [], next: null } },
      { status: 400 },
    );
  const auth = await getAuth();
  const headers = request.headers;
  const organizationId = organization.id;
  try {
    const [{ data: audit }, { data: events }] = await Promise.all([
      auth.api.listOrganizationAuditEvents({
        query: {
          organizationId,
          ...(query.member ? { userId: query.member } : {}),
          ...(action ? { action } : {}),
          ...(from ? { from } : {}),
          ...(to ? { to } : {}),
          limit: PAGE_SIZE,
          offset: (query.page - 1) * PAGE_SIZE,
        },
        headers,
      }),
      auth.api.listOrganizationEvents({
        query: {
          organizationId,
          ...(query.member ? { userId: query.member } : {}),
          ...(type ? { type } : {}),
          ...(from ? { since: from } : {}),
          ...(/^evt_[0-9a-f]{28}$/.test(query.cursor) ? { cursor: query.cursor } : {}),
          limit: PAGE_SIZE,
        },
        headers,
      }),
    ]);
    const named = new Map(members.map((member) => [member.userId, member.label]));
    const nameOf = (id: string | null, actor?: string | null) =>
      id ? (named.get(id) ?? id) : (actor ?? "—");
    const rows: AuditRowView[] = audit.events.map((event) => ({
      id: event.id,
      action: event.action,
      actor: nameOf(event.actorId, event.actor),
      subject: nameOf(event.subjectId),
      createdAt: event.createdAt.toISOString(),
    }));
    return {
      ...base,
      audit: { rows, total: audit.total, pages: Math.max(1, Math.ceil(audit.total / PAGE_SIZE)) },
      events: {
        rows: events.events
          .filter((event) => !to || event.createdAt <= to)
          .map((event) => ({
            id: event.id,
            type: event.type,
            createdAt: event.createdAt,
            organization: organization.name,
            user: nameOf(event.userId, event.actor),
            data: JSON.stringify(event.data, null, 2),
          })),
        next: events.nextCursor,
      },
    };
  } catch (error) {
    return refusePage(error);
  }
}

function isOf<T extends string>(values: readonly string[], value: string): T | null {
  return values.includes(value) ? (value as T) : null;
}

export default function Activity() {
  const { t } = useT();
  const loaded = useLoaderData<typeof loader>();
  if (!("audit" in loaded) || loaded.refusal !== null) {
    return (
      <section aria-labelledby="activity-title">
        <h2 id="activity-title">{t("activity.title")}</h2>
        <WebhookRefusal code={loaded.refusal ?? "RESOURCE_ACCESS_NOT_ALLOWED"} />
      </section>
    );
  }
  const { query, members, audit, events, slug, choices } = loaded;
  const errors: Record<string, string> = loaded.errors;
  const kept = {
    member: query.member,
    action: query.action,
    type: query.type,
    from: query.from,
    to: query.to,
  };
  const href = (change: Record<string, string>) =>
    `/organizations/${slug}/activity?${new URLSearchParams({ ...kept, ...change })}`;
  return (
    <section aria-labelledby="activity-title">
      <h2 id="activity-title">{t("activity.title")}</h2>
      <p>{t("activity.intro")}</p>
      <Form method="get" className="filters" aria-label={t("activity.filters")}>
        <div className="field">
          <label htmlFor="activity-member">{t("activity.member")}</label>
          <select id="activity-member" name="member" defaultValue={query.member}>
            <option value="">{t("activity.anyone")}</option>
            {members.map((member) => (
              <option key={member.userId} value={member.userId}>
                {member.label}
              </option>
            ))}
          </select>
        </div>
        <ChoiceField
          name="action"
          label={t("admin.audit.action")}
          choices={choices.actions}
          value={query.action}
          error={errors.action}
        />
        <ChoiceField
          name="type"
          label={t("activity.type")}
          choices={choices.types}
          value={query.type}
          error={errors.type}
        />
        <DayField name="from" label={t("activity.from")} value={query.from} error={errors.from} />
        <DayField name="to" label={t("activity.to")} value={query.to} error={errors.to} />
        <button type="submit" className="button">
          {t("admin.users.apply")}
        </button>
      </Form>
      <h3>{t("activity.auditTitle")}</h3>
      <AuditTable rows={audit.rows} caption={t("activity.auditCaption", { total: audit.total })} />
      {audit.rows.length === 0 ? <p>{t("admin.audit.empty")}</p> : null}
      <nav className="pagination" aria-label={t("activity.auditPages")}>
        {query.page > 1 ? (
          <Link to={href({ page: String(query.page - 1) })}>{t("common.previous")}</Link>
        ) : null}
        <span>{t("common.pageOf", { page: query.page, pages: audit.pages })}</span>
        {query.page < audit.pages ? (
          <Link to={href({ page: String(query.page + 1) })}>{t("common.next")}</Link>
        ) : null}
      </nav>
      <h3>{t("activity.eventsTitle")}</h3>
      <p className="muted">{t("activity.eventsHint")}</p>
      <EventTable rows={events.rows} showOrganization={false} />
      {events.rows.length === 0 ? <p>{t("activity.noEvents")}</p> : null}
      <nav className="pagination" aria-label={t("activity.eventPages")}>
        {query.cursor ? <Link to={href({})}>{t("activity.newest")}</Link> : null}
        {events.next ? <Link to={href({ cursor: events.next })}>{t("activity.older")}</Link> : null}
      </nav>
    </section>
  );
}
