import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useSearchParams } from "@remix-run/react";
import { getAuth } from "~/auth.server";
import { AdminUserMails } from "~/components/admin-user-mails";
import { AdminUserPasskeys } from "~/components/admin-user-passkeys";
import { Checkbox, ErrorSummary, Field, Notice, Submit } from "~/components/form";
import { PROVIDER_NAMES } from "~/components/social";
import { loadAdminUser } from "~/lib/admin-user.server";
import { failure, field, invalid, newPasswordCodesOn, readForm, redirectWith } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { requireAdmin } from "~/lib/session.server";

export const handle = { title: "admin.user.title" };

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return loadAdminUser(request.headers, params.id ?? "");
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  await requireAdmin(request);
  const auth = await getAuth();
  const userId = params.id ?? "";
  const headers = request.headers;
  const intent = field(form, "intent");
  const back = `/admin/users/${userId}`;
  try {
    switch (intent) {
      case "ban": {
        const days = Number(field(form, "banDays"));
        const reason = field(form, "banReason").trim();
        await auth.api.banUser({
          body: {
            userId,
            ...(reason ? { banReason: reason } : {}),
            ...(days > 0 ? { banExpiresIn: Math.round(days * 86400) } : {}),
          },
          headers,
        });
        break;
      }
      case "unban":
        await auth.api.unbanUser({ body: { userId }, headers });
        break;
      case "set-role":
        await auth.api.setRole({ body: { userId, role: field(form, "role") }, headers });
        break;
      case "set-password":
        await auth.api.setUserPassword({
          body: { userId, newPassword: field(form, "newPassword") },
          headers,
        });
        break;
      case "remove-passkey":
        await auth.api.adminRemoveUserPasskey({
          body: { userId, passkeyId: field(form, "passkeyId") },
          headers,
        });
        break;
      case "revoke-sessions":
        await auth.api.revokeUserSessions({ body: { userId }, headers });
        break;
      case "remove":
        if (form.get("confirmRemove") !== "on") return invalid({ confirmRemove: "CONFIRM_REMOVE" }, form);
        await auth.api.removeUser({ body: { userId }, headers });
        return redirectWith("/admin/users?done=removed");
      case "impersonate": {
        const reason = field(form, "reason").trim();
        const result = await auth.api.impersonateUser({
          body: { userId, ...(reason ? { reason } : {}) },
          headers,
          remoteAddress: context.remoteAddress,
        });
        return redirectWith("/", result.headers);
      }
    }
    return redirectWith(`${back}?done=${intent}`);
  } catch (error) {
    return failure(error, form, {
      ...newPasswordCodesOn("newPassword"),
      INVALID_ROLE: "role",
    });
  }
}

export default function AdminUser() {
  const { t, lang } = useT();
  const { user, sessions, accounts, events, passkeys, mails } = useLoaderData<typeof loader>();
  const state = useActionData<typeof action>();
  const [params] = useSearchParams();
  const location = useLocation();
  const format = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" });
  const done = params.get("done");
  const labels = {
    newPassword: t("fields.newPassword"),
    role: t("admin.users.role"),
    confirmRemove: t("admin.user.confirmRemove", { email: user.email }),
  };
  return (
    <section aria-labelledby="user-title" key={location.key}>
      <p>
        <Link to="/admin/users">{t("admin.user.back")}</Link>
      </p>
      <h2 id="user-title">{user.name}</h2>
      {done ? <Notice>{t("common.saved")}</Notice> : null}
      <ErrorSummary state={state} labels={labels} />
      <dl className="facts">
        <dt>{t("fields.email")}</dt>
        <dd>
          {user.email} ({user.emailVerified ? t("admin.users.verified") : t("admin.users.unverified")})
        </dd>
        <dt>{t("admin.users.role")}</dt>
        <dd data-testid="user-role">{user.role}</dd>
        <dt>{t("admin.users.status")}</dt>
        <dd data-testid="user-status">
          {!user.banned
            ? t("admin.user.active")
            : user.banExpires
              ? t("admin.user.bannedBecause", {
                  reason: user.banReason ?? "",
                  until: format.format(new Date(user.banExpires)),
                })
              : t("admin.user.bannedPermanently", { reason: user.banReason ?? "" })}
        </dd>
        <dt>{t("account.tabs.twoFactor")}</dt>
        <dd>{user.twoFactorEnabled ? t("common.yes") : t("common.no")}</dd>
        <dt>{t("admin.users.joined")}</dt>
        <dd>{format.format(new Date(user.createdAt))}</dd>
      </dl>

      <div className="grid-2">
        <Form method="post" noValidate>
          <fieldset>
            <legend>{t("admin.user.impersonate")}</legend>
            <Field name="reason" label={t("admin.user.reason")} state={state} />
            <Submit intent="impersonate" className="button button-secondary">
              {t("admin.user.impersonateSubmit")}
            </Submit>
          </fieldset>
        </Form>
        {user.banned ? (
          <Form method="post">
            <fieldset>
              <legend>{t("admin.user.ban")}</legend>
              <Submit intent="unban">{t("admin.user.unban")}</Submit>
            </fieldset>
          </Form>
        ) : (
          <Form method="post" noValidate>
            <fieldset>
              <legend>{t("admin.user.ban")}</legend>
              <Field name="banReason" label={t("admin.user.banReason")} state={state} />
              <Field
                name="banDays"
                type="number"
                min={0}
                label={t("admin.user.banDays")}
                hint={t("admin.user.banDaysHint")}
                state={state}
              />
              <Submit intent="ban" className="button button-danger">
                {t("admin.user.banSubmit")}
              </Submit>
            </fieldset>
          </Form>
        )}
        <Form method="post" noValidate>
          <fieldset>
            <legend>{t("admin.user.setRole")}</legend>
            <div className="field">
              <label htmlFor="field-role">{labels.role}</label>
              <select id="field-role" name="role" defaultValue={user.role}>
                <option value="user">user</option>
                <option value="admin">admin</option>
              </select>
            </div>
            <Submit intent="set-role">{t("admin.user.setRoleSubmit")}</Submit>
          </fieldset>
        </Form>
        <Form method="post" noValidate>
          <fieldset>
            <legend>{t("admin.user.setPassword")}</legend>
            <Field
              name="newPassword"
              type="password"
              label={labels.newPassword}
              state={state}
              autoComplete="new-password"
              hint={t("admin.user.setPasswordHint")}
            />
            <Submit intent="set-password">{t("admin.user.setPasswordSubmit")}</Submit>
          </fieldset>
        </Form>
        <Form method="post">
          <fieldset>
            <legend>{t("admin.user.revokeSessions")}</legend>
            <p>{t("admin.user.sessionCount", { count: sessions.length })}</p>
            <Submit intent="revoke-sessions" className="button button-secondary">
              {t("admin.user.revokeSessionsSubmit")}
            </Submit>
          </fieldset>
        </Form>
        <Form method="post" noValidate>
          <fieldset>
            <legend>{t("admin.user.remove")}</legend>
            <Checkbox name="confirmRemove" label={labels.confirmRemove} />
            {state?.errors?.confirmRemove ? (
              <p className="field-error" id="field-confirmRemove-error">
                {t("validation.CONFIRM_REMOVE")}
              </p>
            ) : null}
            <Submit intent="remove" className="button button-danger">
              {t("admin.user.removeSubmit")}
            </Submit>
          </fieldset>
        </Form>
      </div>

      <h3 id="user-sessions-title">{t("admin.user.sessions")}</h3>
      {sessions.length === 0 ? (
        <p>{t("admin.user.noSessions")}</p>
      ) : (
        <table aria-labelledby="user-sessions-title">
          <thead>
            <tr>
              <th scope="col">{t("account.sessions.device")}</th>
              <th scope="col">{t("account.sessions.ip")}</th>
              <th scope="col">{t("account.sessions.lastActive")}</th>
            </tr>
          </thead>
          <tbody>
            {sessions.map((session) => (
              <tr key={session.id}>
                <td>
                  {session.device}
                  {session.impersonated ? ` (${t("admin.user.impersonation")})` : ""}
                </td>
                <td>{session.ipAddress ?? t("account.sessions.unknownIp")}</td>
                <td>{format.format(new Date(session.updatedAt))}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h3 id="linked-accounts-title">{t("account.linked.title")}</h3>
      {accounts.length === 0 ? (
        <p>{t("admin.user.noLinkedAccounts")}</p>
      ) : (
        <table aria-labelledby="linked-accounts-title">
          <thead>
            <tr>
              <th scope="col">{t("account.linked.provider")}</th>
              <th scope="col">{t("admin.user.accountId")}</th>
              <th scope="col">{t("account.linked.linkedAt")}</th>
            </tr>
          </thead>
          <tbody>
            {accounts.map((account) => (
              <tr key={account.id}>
                <td>
                  {account.providerId === "credential"
                    ? t("account.linked.password")
                    : (PROVIDER_NAMES[account.providerId] ?? account.providerId)}
                </td>
                <td>
                  <code>{account.accountId}</code>
                </td>
                <td>{format.format(new Date(account.createdAt))}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <AdminUserPasskeys passkeys={passkeys} />
      <AdminUserMails mails={mails} format={format} />
      <h3>{t("admin.user.events")}</h3>
      {events.length === 0 ? (
        <p>{t("admin.user.noEvents")}</p>
      ) : (
        <ul>
          {events.map((event) => (
            <li key={event.id}>
              <time dateTime={event.createdAt}>{format.format(new Date(event.createdAt))}</time> —{" "}
              <code>{event.action}</code>
              {event.reason ? ` (${event.reason})` : ""}
            </li>
          ))}
        </ul>
      )}
      <p>
        <Link to={`/admin/audit?subject=${user.id}`}>{t("admin.user.allEvents")}</Link>
      </p>
    </section>
  );
}
