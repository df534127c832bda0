import { type ActionFunctionArgs, type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { errorMessage, getAuth, remix } from "~/auth.server";
import { strings } from "~/strings";

const t = strings.organizations;

export async function loader({ request }: LoaderFunctionArgs) {
  await remix.requireSession(request);
  const { data: organizations } = await (await getAuth()).api.listOrganizations({
    headers: request.headers,
    query: {},
  });
  return { organizations: organizations.map(({ id, name, slug }) => ({ id, name, slug })) };
}

export async function action(args: ActionFunctionArgs) {
  const form = await args.request.formData();
  try {
    const { data: organization } = await (await getAuth()).api.createOrganization({
      body: { name: String(form.get("name") ?? "").trim(), slug: String(form.get("slug") ?? "").trim() },
      ...remix.onBehalfOf(args),
    });
    return redirect(`/organizations/${organization.slug}`);
  } catch (error) {
    return { error: errorMessage(error) };
  }
}

export default function Organizations() {
  const { organizations } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <main>
      <h1>{t.title}</h1>
      {organizations.length === 0 ? <p>{t.none}</p> : null}
      <ul>
        {organizations.map((organization) => (
          <li key={organization.id}>
            <Link to={`/organizations/${organization.slug}`}>{organization.name}</Link>
          </li>
        ))}
      </ul>
      <h2>{t.createTitle}</h2>
      {result?.error ? <p role="alert">{result.error}</p> : null}
      <Form method="post">
        <label>
          {t.name} <input name="name" maxLength={256} required />
        </label>
        <label>
          {t.slug} <input name="slug" maxLength={100} aria-describedby="slug-hint" required />
        </label>
        <p>
          <small id="slug-hint">{t.slugHint}</small>
        </p>
        <button type="submit">{t.create}</button>
      </Form>
      <p>
        <Link to="/account">{t.back}</Link>
      </p>
    </main>
  );
}
