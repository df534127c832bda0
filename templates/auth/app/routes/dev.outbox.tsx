import { useLoaderData } from "@remix-run/react";
import { getAppAuth } from "~/auth.server";
import { strings } from "~/strings";

// Development only: the mails the app sent (verification, reset links). A 404 in production.
export async function loader() {
  const { outbox } = await getAppAuth();
  if (!outbox || process.env.NODE_ENV === "production") throw new Response("Not found", { status: 404 });
  return {
    mails: [...outbox.messages()].reverse().map((mail) => ({
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      sentAt: mail.sentAt.toISOString(),
    })),
  };
}

const t = strings.devOutbox;

export default function DevOutbox() {
  const { mails } = useLoaderData<typeof loader>();
  return (
    <main>
      <h1>{t.title}</h1>
      <p>{t.intro}</p>
      {mails.length === 0 ? <p>{t.none}</p> : null}
      {mails.map((mail) => (
        <article key={`${mail.sentAt}-${mail.to}-${mail.subject}`}>
          <h2>{mail.subject}</h2>
          <p>
            {t.to(mail.to)} · <time dateTime={mail.sentAt}>{mail.sentAt}</time>
          </p>
          <pre style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
            {mail.text.split(/(https?:\/\/\S+)/).map((part, index) =>
              // Odd parts are the links the split kept: clickable, as in a mail client.
              index % 2 === 1 ? (
                <a key={part} href={part}>
                  {part}
                </a>
              ) : (
                part
              ),
            )}
          </pre>
        </article>
      ))}
    </main>
  );
}
