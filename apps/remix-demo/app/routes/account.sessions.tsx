import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { getAuth } from "~/auth.server";
import { DoneNotice, Submit } from "~/components/form";
import { describeDevice } from "~/lib/device";
import { field, readForm, redirectWith } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { requireViewer } from "~/lib/session.server";

export const handle = { title: "account.tabs.sessions" };

export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireViewer(request);
  const auth = await getAuth();
  const { data } = await auth.api.listSessions({ headers: request.headers });
  // Ids only: a session's token never reaches the page.
  return {
    sessions: data.map((session) => ({
      id: session.id,
      device: describeDevice(session.userAgent),
      ipAddress: session.ipAddress,
      lastActive: session.updatedAt.toISOString(),
      isCurrent: session.id === viewer.session.id,
    })),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  await requireViewer(request);
  const auth = await getAuth();
  if (field(form, "intent") === "revoke-others") {
    const result = await auth.api.revokeOtherSessions({ headers: request.headers });
    return redirectWith("/account/sessions?done=others", result.headers);
  }
  const { data } = await auth.api.listSessions({ headers: request.headers });
  const target = data.find((session) => session.id === field(form, "sessionId"));
  if (target) await auth.api.revokeSession({ body: { token: target.token }, headers: request.headers });
  return redirectWith("/account/sessions?done=one");
}

export default function Sessions() {
  const { t, lang } = useT();
  const { sessions } = useLoaderData<typeof loader>();
  const format = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" });
  return (
    <section aria-labelledby="sessions-title">
      <h2 id="sessions-title">{t("account.sessions.title")}</h2>
      <DoneNotice outcomes={{ one: "account.sessions.revoked", others: "account.sessions.revoked" }} />
      <table>
        <caption className="muted">{t("account.sessions.caption", { count: sessions.length })}</caption>
        <thead>
          <tr>
            <th scope="col">{t("account.sessions.device")}</th>
            <th scope="col">{t("account.sessions.ip")}</th>
            <th scope="col">{t("account.sessions.lastActive")}</th>
            <th scope="col">{t("common.actions")}</th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((session) => (
            <tr key={session.id}>
              <td>{session.device}</td>
              <td>{session.ipAddress ?? t("account.sessions.unknownIp")}</td>
              <td>
                <time dateTime={session.lastActive}>{format.format(new Date(session.lastActive))}</time>
              </td>
              <td>
                {session.isCurrent ? (
                  <strong>{t("account.sessions.current")}</strong>
                ) : (
                  <Form method="post">
                    <input type="hidden" name="sessionId" value={session.id} />
                    <button
                      type="submit"
                      className="button button-small button-secondary"
                      name="intent"
                      value="revoke"
                    >
                      {t("account.sessions.revoke")}
                      <span className="visually-hidden"> {session.device}</span>
                    </button>
                  </Form>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {sessions.length > 1 ? (
        <Form method="post">
          <p>
            <Submit intent="revoke-others" className="button button-danger">
              {t("account.sessions.revokeOthers")}
            </Submit>
          </p>
        </Form>
      ) : null}
    </section>
  );
}
