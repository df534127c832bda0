import type { LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { getAuth } from "~/auth.server";
import { useT } from "~/lib/i18n";
import { requireAdmin } from "~/lib/session.server";

export const handle = { title: "admin.tabs.users" };

const PAGE_SIZE = 10;
const SORTS = ["createdAt", "email", "name", "role"] as const;
const FILTERS: Record<string, { filterField: "role" | "banned" | "emailVerified"; filterValue: string }> = {
  admins: { filterField: "role", filterValue: "admin" },
  users: { filterField: "role", filterValue: "user" },
  banned: { filterField: "banned", filterValue: "true" },
  verified: { filterField: "emailVerified", filterValue: "true" },
  unverified: { filterField: "emailVerified", filterValue: "false" },
};

// Search, filter, sort and paging all happen in the database (list-users); the URL holds the state,
// so every view can be bookmarked and works without JavaScript.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const q = (params.get("q") ?? "").trim();
  const field = params.get("field") === "name" ? "name" : "email";
  const filter = params.get("filter") ?? "";
  const sortParam = params.get("sort") ?? "createdAt";
  const sort = (SORTS as readonly string[]).includes(sortParam)
    ? (sortParam as (typeof SORTS)[number])
    : "createdAt";
  const dir = params.get("dir") === "asc" ? "asc" : "desc";
  const page = Math.max(1, Number.parseInt(params.get("page") ?? "1", 10) || 1);
  const auth = await getAuth();
  const { data } = await auth.api.listUsers({
    query: {
      ...(q ? { searchValue: q, searchField: field, searchOperator: "contains" as const } : {}),
      ...(FILTERS[filter] ? { ...FILTERS[filter], filterOperator: "eq" as const } : {}),
      sortBy: sort,
      sortDirection: dir,
      limit: PAGE_SIZE,
      offset: (page - 1) * PAGE_SIZE,
    },
    headers: request.headers,
  });
  return {
    query: { q, field, filter, sort, dir, page },
    total: data.total,
    pages: Math.max(1, Math.ceil(data.total / PAGE_SIZE)),
    users: data.users.map((user) => ({
      id: user.id,
      name: user.name,
      email: user.email,
      role: user.role,
      banned: user.banned,
      emailVerified: user.emailVerified,
      createdAt: user.createdAt.toISOString(),
    })),
  };
}

export default function Users() {
  const { t, lang } = useT();
  const { query, users, total, pages } = useLoaderData<typeof loader>();
  const format = new Intl.DateTimeFormat(lang, { dateStyle: "medium" });
  const href = (change: Record<string, string | number>) => {
    const params = new URLSearchParams({
      q: query.q,
      field: query.field,
      filter: query.filter,
      sort: query.sort,
      dir: query.dir,
      page: String(query.page),
    });
    for (const [key, value] of Object.entries(change)) params.set(key, String(value));
    for (const [key, value] of [...params]) if (!value) params.delete(key);
    return `/admin/users?${params}`;
  };
  const sortLink = (key: string, label: string) => {
    const active = query.sort === key;
    const dir = active && query.dir === "asc" ? "desc" : "asc";
    return (
      <th scope="col" aria-sort={active ? (query.dir === "asc" ? "ascending" : "descending") : undefined}>
        <Link to={href({ sort: key, dir, page: 1 })}>
          {label}
          {active ? (query.dir === "asc" ? " ▲" : " ▼") : ""}
        </Link>
      </th>
    );
  };
  return (
    <section aria-labelledby="users-title">
      <h2 id="users-title">{t("admin.users.title")}</h2>
      <Form method="get" className="filters" role="search" aria-label={t("admin.users.searchLabel")}>
        <div className="field">
          <label htmlFor="users-q">{t("admin.users.search")}</label>
          <input id="users-q" name="q" type="search" defaultValue={query.q} />
        </div>
        <div className="field">
          <label htmlFor="users-field">{t("admin.users.searchIn")}</label>
          <select id="users-field" name="field" defaultValue={query.field}>
            <option value="email">{t("fields.email")}</option>
            <option value="name">{t("fields.name")}</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="users-filter">{t("admin.users.filter")}</label>
          <select id="users-filter" name="filter" defaultValue={query.filter}>
            <option value="">{t("admin.users.filters.all")}</option>
            {Object.keys(FILTERS).map((key) => (
              <option key={key} value={key}>
                {t(`admin.users.filters.${key}`)}
              </option>
            ))}
          </select>
        </div>
        <input type="hidden" name="sort" value={query.sort} />
        <input type="hidden" name="dir" value={query.dir} />
        <button type="submit" className="button">
          {t("admin.users.apply")}
        </button>
      </Form>
      <table>
        <caption className="muted">{t("admin.users.caption", { count: total })}</caption>
        <thead>
          <tr>
            {sortLink("name", t("fields.name"))}
            {sortLink("email", t("fields.email"))}
            {sortLink("role", t("admin.users.role"))}
            <th scope="col">{t("admin.users.status")}</th>
            {sortLink("createdAt", t("admin.users.joined"))}
          </tr>
        </thead>
        <tbody>
          {users.map((user) => (
            <tr key={user.id}>
              <td>
                <Link to={`/admin/users/${user.id}`}>{user.name}</Link>
              </td>
              <td>{user.email}</td>
              <td>{user.role}</td>
              <td>
                {[
                  user.banned ? t("admin.users.banned") : null,
                  user.emailVerified ? t("admin.users.verified") : t("admin.users.unverified"),
                ]
                  .filter(Boolean)
                  .join(", ")}
              </td>
              <td>{format.format(new Date(user.createdAt))}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <nav className="pagination" aria-label={t("admin.users.pages")}>
        {query.page > 1 ? <Link to={href({ page: query.page - 1 })}>{t("common.previous")}</Link> : null}
        <span>{t("common.pageOf", { page: query.page, pages })}</span>
        {query.page < pages ? <Link to={href({ page: query.page + 1 })}>{t("common.next")}</Link> : null}
      </nav>
    </section>
  );
}
