import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { remix } from "~/auth.server";
import { strings } from "~/strings";

const t = strings.home;

export async function loader({ request }: LoaderFunctionArgs) {
  const session = await remix.getSession(request);
  return { name: session?.user.name ?? null };
}

export default function Index() {
  const { name } = useLoaderData<typeof loader>();
  return (
    <main>
      <h1>{t.title}</h1>
      {name === null ? (
        <p>
          <Link to="/sign-in">{t.signIn}</Link>
          {t.or}
          <Link to="/sign-up">{t.signUp}</Link>.
        </p>
      ) : (
        <p>
          {t.signedInAs(name)} <Link to="/account">{t.account}</Link>
        </p>
      )}
    </main>
  );
}
