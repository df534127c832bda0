import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useRevalidator } from "@remix-run/react";
import { errorMessage, getAuth, remix } from "~/auth.server";
import { AddPasskey } from "~/components/passkeys";
import { strings } from "~/strings";

const t = strings.passkeys;

export async function loader({ request }: LoaderFunctionArgs) {
  await remix.requireSession(request);
  const { data: passkeys } = await (await getAuth()).api.listPasskeys({ headers: request.headers });
  return {
    passkeys: passkeys.map((passkey) => ({
      id: passkey.id,
      name: passkey.name ?? passkey.authenticatorName ?? t.unnamed,
      createdAt: new Date(passkey.createdAt).toISOString().slice(0, 10),
    })),
  };
}

/** Removing one is a plain form; the core refuses to remove the last way to sign in. */
export async function action(args: ActionFunctionArgs) {
  const form = await args.request.formData();
  try {
    const id = String(form.get("id") ?? "");
    await (await getAuth()).api.deletePasskey({ body: { id }, ...remix.onBehalfOf(args) });
    return { error: null };
  } catch (error) {
    return { error: errorMessage(error) };
  }
}

export default function Passkeys() {
  const { passkeys } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const revalidator = useRevalidator();
  return (
    <main>
      <h1>{t.title}</h1>
      <p>{t.intro}</p>
      {result?.error ? <p role="alert">{result.error}</p> : null}
      {passkeys.length === 0 ? <p>{t.none}</p> : null}
      <ul>
        {passkeys.map((passkey) => (
          <li key={passkey.id}>
            <Form method="post">
              <input type="hidden" name="id" value={passkey.id} />
              {passkey.name} · {t.createdOn(passkey.createdAt)} <button type="submit">{t.remove}</button>
            </Form>
          </li>
        ))}
      </ul>
      <AddPasskey onAdded={() => revalidator.revalidate()} />
      <p>
        <Link to="/account">{t.back}</Link>
      </p>
    </main>
  );
}
