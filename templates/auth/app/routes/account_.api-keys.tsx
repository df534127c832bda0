import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { errorMessage, getAuth, remix } from "~/auth.server";
import { strings } from "~/strings";

const t = strings.apiKeys;

export async function loader({ request }: LoaderFunctionArgs) {
  await remix.requireSession(request);
  const { data: list } = await (await getAuth()).api.listApiKeys({ headers: request.headers, query: {} });
  return {
    keys: list.apiKeys.map((key) => ({
      id: key.id,
      name: key.name,
      start: key.start,
      createdAt: new Date(key.createdAt).toISOString().slice(0, 10),
    })),
  };
}

/** A new key is answered in full once, here, and never again (the core stores its hash). */
export async function action(args: ActionFunctionArgs) {
  const form = await args.request.formData();
  const auth = (await getAuth()).api;
  try {
    if (form.get("intent") === "revoke") {
      await auth.deleteApiKey({ body: { keyId: String(form.get("id") ?? "") }, ...remix.onBehalfOf(args) });
      return { created: null, error: null };
    }
    const name = String(form.get("name") ?? "").trim();
    const { data: key } = await auth.createApiKey({
      body: name ? { name } : {},
      ...remix.onBehalfOf(args),
    });
    return { created: key.key, error: null };
  } catch (error) {
    return { created: null, error: errorMessage(error) };
  }
}

export default function ApiKeys() {
  const { keys } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <main>
      <h1>{t.title}</h1>
      {result?.error ? <p role="alert">{result.error}</p> : null}
      {result?.created ? (
        <p role="status">
          {t.created} <code data-testid="new-api-key">{result.created}</code>
        </p>
      ) : null}
      {keys.length === 0 ? <p>{t.none}</p> : null}
      <ul>
        {keys.map((key) => (
          <li key={key.id}>
            <Form method="post">
              <input type="hidden" name="intent" value="revoke" />
              <input type="hidden" name="id" value={key.id} />
              {key.name ?? t.unnamed} · <code>{key.start ?? ""}…</code> · {t.createdOn(key.createdAt)}{" "}
              <button type="submit">{t.revoke}</button>
            </Form>
          </li>
        ))}
      </ul>
      <h2>{t.createTitle}</h2>
      <Form method="post">
        <label>
          {t.name} <input name="name" maxLength={32} />
        </label>
        <button type="submit">{t.create}</button>
      </Form>
      <p>
        <Link to="/account">{t.back}</Link>
      </p>
    </main>
  );
}
