import { type ActionFunctionArgs, type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { errorMessage, getAuth, getSession } from "~/auth.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const session = await getSession(request);
  if (!session)
    return redirect(`/sign-in?redirectTo=${encodeURIComponent(`/accept-invitation/${params.id}`)}`);
  return { id: params.id ?? "" };
}

export async function action({ request, params }: ActionFunctionArgs) {
  try {
    await getAuth().api.acceptInvitation({
      body: { invitationId: params.id ?? "" },
      headers: request.headers,
    });
    return redirect("/account");
  } catch (error) {
    return { error: errorMessage(error) };
  }
}

export default function AcceptInvitation() {
  const { id } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <main>
      <h1>Join the organization</h1>
      {result?.error ? <p role="alert">{result.error}</p> : null}
      <Form method="post">
        <input type="hidden" name="id" value={id} />
        <button type="submit">Accept the invitation</button>
      </Form>
    </main>
  );
}
