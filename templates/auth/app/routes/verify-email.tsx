import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { errorMessage, getAuth } from "~/auth.server";
import { strings } from "~/strings";

const t = strings.verifyEmail;
/** What the `error` of /api/auth/verify-email's redirect means, for the visitor. */
const LINK_ERRORS: Record<string, string> = t.linkErrors;

// The mailed link verifies at /api/auth/verify-email and lands here (sign-up's callbackURL) with
// ?verified=1 or ?error=…; a link with ?token=… straight to this page is verified here.
export async function loader({ request }: LoaderFunctionArgs) {
  const query = new URL(request.url).searchParams;
  const failed = query.get("error");
  if (failed) return { verified: false, error: LINK_ERRORS[failed] ?? t.invalid };
  if (query.get("verified") === "1") return { verified: true, error: null };
  const token = query.get("token");
  if (!token) return { verified: false, error: t.incomplete };
  try {
    await (await getAuth()).api.verifyEmail({ query: { token }, headers: request.headers });
    return { verified: true, error: null };
  } catch (error) {
    return { verified: false, error: errorMessage(error) };
  }
}

export default function VerifyEmail() {
  const { verified, error } = useLoaderData<typeof loader>();
  return (
    <main>
      <h1>{t.title}</h1>
      {verified ? <p>{t.done}</p> : <p role="alert">{error}</p>}
      <Link to="/account">{t.continue}</Link>
    </main>
  );
}
