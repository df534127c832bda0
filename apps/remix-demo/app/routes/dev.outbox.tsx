import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { getAppAuth } from "~/auth.server";
import { useT } from "~/lib/i18n";

export const handle = { title: "outbox.title" };

// Development only, and only when mails are not sent over SMTP: a 404 everywhere else.
export async function loader(_: LoaderFunctionArgs) {
  const { outbox } = await getAppAuth();
  if (!outbox || process.env.NODE_ENV === "production") throw new Response("Not found", { status: 404 });
  return {
    mails: outbox
      .messages()
      .toReversed()
      .map((mail, index, all) => ({
        id: all.length - index,
        to: mail.to,
        subject: mail.subject,
        kind: mail.kind,
        text: mail.text,
        sentAt: mail.sentAt.toISOString(),
      })),
  };
}

export default function DevOutbox() {
  const { t } = useT();
  const { mails } = useLoaderData<typeof loader>();
  return (
    <section className="card">
      <h1>{t("outbox.title")}</h1>
      <p>{t("outbox.intro")}</p>
      {mails.length === 0 ? <p>{t("outbox.empty")}</p> : null}
      <ol className="outbox">
        {mails.map((mail) => (
          <li key={mail.id} className="mail">
            <h2>{mail.subject}</h2>
            <p className="muted">
              {t("outbox.to", { to: mail.to })} · <time dateTime={mail.sentAt}>{mail.sentAt}</time> ·{" "}
              {mail.kind}
            </p>
            <MailText text={mail.text} />
          </li>
        ))}
      </ol>
    </section>
  );
}

/** The text part with its links made clickable. */
function MailText({ text }: { text: string }) {
  let offset = 0;
  const parts = text.split(/(https?:\/\/[^\s<>"]+)/g).map((part) => {
    offset += part.length;
    return { part, key: offset };
  });
  return (
    <pre className="mail-text">
      {parts.map(({ part, key }) =>
        /^https?:\/\//.test(part) ? (
          <a key={key} href={part}>
            {part}
          </a>
        ) : (
          <span key={key}>{part}</span>
        ),
      )}
    </pre>
  );
}
