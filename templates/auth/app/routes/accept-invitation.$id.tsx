import { type ActionFunctionArgs, type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { errorMessage, getAuth, remix } from "~/auth.server";
import { strings } from "~/strings";

export async function loader({ request, params }: LoaderFunctionArgs) {
  // Signed out: to sign-in, which brings the user back here.
  await remix.requireSession(request);
  return { id: params.id ?? "" };
}

export async function action(args: ActionFunctionArgs) {
  const { params } = args;
  try {
    await (await getAuth()).api.acceptInvitation({
      body: { invitationId: params.id ?? "" },
      // The request's cookies and Origin, the client's address and the endpoint's rate limit.
      ...remix.onBehalfOf(args),
    });
    return redirect("/account");
  } catch (error) {
    return { error: errorMessage(error) };
  }
}

const t = strings.invitation;

export default function AcceptInvitation() {
  const { id } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <main>
      <h1>{t.title}</h1>
      {result?.error ? <p role="alert">{result.error}</p> : null}
      <Form method="post">
        <input type="hidden" name="id" value={id} />
        <button type="submit">{t.accept}</button>
      </Form>
    </main>
  );
}
