import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { EVENT_TYPES, type EventType } from "@tessera/auth-core";
import { createOperatorOrganizations } from "@tessera/auth-core/operator";
import { getAuth } from "~/auth.server";
import { dayBound, type EventRowView, EventTable } from "~/components/activity-tables";
import { ChoiceField, DayField } from "~/components/filter-fields";
import { useT } from "~/lib/i18n";
import { requireAdmin } from "~/lib/session.server";

/**
 * Admin → Events (issue 33 §3): every change the app's webhooks deliver, newest first, by type,
 * organization and day, a page at a time (the core's cursor).
 */
export const handle = { title: "admin.tabs.events" };

const PAGE_SIZE = 25;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const url = new URL(request.url).searchParams;
  const query = {
    type: url.get("type") ?? "",
    organization: url.get("organization") ?? "",
    user: url.get("user") ?? "",
    from: url.get("from") ?? "",
    cursor: url.get("cursor") ?? "",
  };
  const type =
    query.type === ""
      ? undefined
      : (EVENT_TYPES as readonly string[]).includes(query.type)
        ? (query.type as EventType)
        : null;
  const since = query.from ? dayBound(query.from, "start") : undefined;
  const auth = await getAuth();
  // By id or slug, as the CLI's --org takes it; a slug nobody has is the id's error.
  const organization = query.organization.trim()
    ? await createOperatorOrganizations(auth, "admin-page").findOrganization(query.organization.trim())
    : undefined;
  const errors: Record<string, string> = {
    ...(type === null ? { type: "UNKNOWN_CHOICE" } : {}),
    ...(since === null ? { from: "DATE_INVALID" } : {}),
    ...(organization === null ? { organization: "ID_INVALID" } : {}),
  };
  if (Object.keys(errors).length > 0)
    return data(
      { query, errors, types: EVENT_TYPES, rows: [] as EventRowView[], next: null },
      { status: 400 },
    );
  const userId = await findUserId(auth, query.user, request.headers);
  const { data: page } = await auth.api.listEvents({
    query: {
      ...(userId ? { userId } : {}),
      ...(type ? { type } : {}),
      ...(organization ? { organizationId: organization._id.toHexString() } : {}),
      ...(since ? { since } : {}),
      ...(/^evt_[0-9a-f]{28}$/.test(query.cursor) ? { cursor: query.cursor } : {}),
      limit: PAGE_SIZE,
    },
    headers: request.headers,
  });
  const names = await nameIds(auth, page.events, request.headers);
  const rows: EventRowView[] = page.events.map((event) => ({
    id: event.id,
    type: event.type,
    createdAt: event.createdAt,
    organization: event.organizationId
      ? (names.organizations.get(event.organizationId) ?? event.organizationId)
      : null,
    user: event.userId ? (names.users.get(event.userId) ?? event.userId) : (event.actor ?? "—"),
    userHref: event.userId && names.users.has(event.userId) ? `/admin/users/${event.userId}` : undefined,
    data: JSON.stringify(event.data, null, 2),
  }));
  return { query, errors, types: EVENT_TYPES, rows, next: page.nextCursor };
}

/**
 * The people and organizations a page of events names, read once per distinct id: users by their
 * email (the admin's get-user), organizations by "name (slug)". One deleted since keeps its id.
 */
async function nameIds(
  auth: Awaited<ReturnType<typeof getAuth>>,
  events: { userId: string | null; organizationId: string | null }[],
  headers: Headers,
) {
  const distinct = (ids: (string | null)[]) => [...new Set(ids.filter((id): id is string => id !== null))];
  const organizations = createOperatorOrganizations(auth, "admin-page");
  const [users, orgs] = await Promise.all([
    Promise.all(
      distinct(events.map((event) => event.userId)).map(async (id) => {
        const found = await auth.api.getUser({ query: { id }, headers }).catch(() => null);
        return [id, found?.data.email] as const;
      }),
    ),
    Promise.all(
      distinct(events.map((event) => event.organizationId)).map(async (id) => {
        const found = await organizations.findOrganization(id);
        return [id, found ? `${found.name} (${found.slug})` : undefined] as const;
      }),
    ),
  ]);
  const known = (pairs: (readonly [string, string | undefined])[]) =>
    new Map(pairs.filter((pair): pair is readonly [string, string] => pair[1] !== undefined));
  return { users: known(users), organizations: known(orgs) };
}

/**
 * The user a filter names, by id or by (part of) an email address as on the audit log; a name that
 * matches nobody filters on an id no event has, so the page is empty rather than unfiltered.
 */
async function findUserId(auth: Awaited<ReturnType<typeof getAuth>>, value: string, headers: Headers) {
  if (!value) return undefined;
  if (/^[0-9a-f]{24}$/i.test(value)) return value.toLowerCase();
  const { data } = await auth.api.listUsers({
    query: { searchValue: value, searchField: "email", searchOperator: "contains", limit: 1 },
    headers,
  });
  return data.users[0]?.id ?? "000000000000000000000000";
}

export default function AdminEvents() {
  const { t } = useT();
  const { query, errors, types, rows, next } = useLoaderData<typeof loader>();
  const kept = { type: query.type, organization: query.organization, user: query.user, from: query.from };
  const href = (cursor: string | null) =>
    `/admin/events?${new URLSearchParams({ ...kept, ...(cursor ? { cursor } : {}) })}`;
  return (
    <section aria-labelledby="events-title">
      <h2 id="events-title">{t("activity.eventsTitle")}</h2>
      <p className="muted">{t("activity.eventsHint")}</p>
      <Form method="get" className="filters" aria-label={t("activity.filters")}>
        <ChoiceField
          name="type"
          label={t("activity.type")}
          choices={types}
          value={query.type}
          error={errors.type}
        />
        <div className="field">
          <label htmlFor="activity-organization">{t("activity.organizationId")}</label>
          <input
            id="activity-organization"
            name="organization"
            defaultValue={query.organization}
            aria-invalid={errors.organization ? true : undefined}
            aria-describedby={errors.organization ? "activity-organization-error" : undefined}
          />
          {errors.organization ? (
            <p className="field-error" id="activity-organization-error">
              {t(`validation.${errors.organization}`)}
            </p>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor="activity-user">{t("activity.userFilter")}</label>
          <input id="activity-user" name="user" defaultValue={query.user} />
        </div>
        <DayField name="from" label={t("activity.from")} value={query.from} error={errors.from} />
        <button type="submit" className="button">
          {t("admin.users.apply")}
        </button>
      </Form>
      <EventTable rows={rows} showOrganization={true} />
      {rows.length === 0 ? <p>{t("activity.noEvents")}</p> : null}
      <nav className="pagination" aria-label={t("activity.eventPages")}>
        {query.cursor ? <Link to={href(null)}>{t("activity.newest")}</Link> : null}
        {next ? <Link to={href(next)}>{t("activity.older")}</Link> : null}
      </nav>
    </section>
  );
}
