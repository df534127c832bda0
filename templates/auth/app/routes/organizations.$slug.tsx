import { type ActionFunctionArgs, type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { isAuthError } from "@tessera/auth-core";
import { errorMessage, getAuth, remix } from "~/auth.server";
import { strings } from "~/strings";

const t = strings.organization;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user } = await remix.requireSession(request);
  // Not a member (or no such organization): the core refuses, the page says "not found".
  const found = await (await getAuth()).api
    .getFullOrganization({ headers: request.headers, query: { organizationSlug: params.slug ?? "" } })
    .catch((error: unknown) => {
      if (isAuthError(error)) return null;
      throw error;
    });
  const organization = found?.data;
  // The words in the body: a status text is Latin-1 only.
  if (!organization) throw new Response(t.notFound, { status: 404, statusText: "Not Found" });
  return {
    id: organization.id,
    name: organization.name,
    members: organization.members.map((member) => ({
      id: member.id,
      name: member.user.name,
      email: member.user.email,
      role: member.role,
      isYou: member.userId === user.id,
    })),
    invitations: organization.invitations
      .filter((invitation) => invitation.status === "pending")
      .map(({ id, email, role }) => ({ id, email, role })),
  };
}

export async function action(args: ActionFunctionArgs) {
  const form = await args.request.formData();
  const auth = (await getAuth()).api;
  const organizationId = String(form.get("organizationId") ?? "");
  try {
    if (form.get("intent") === "leave") {
      await auth.leaveOrganization({ body: { organizationId }, ...remix.onBehalfOf(args) });
      return redirect("/organizations");
    }
    const email = String(form.get("email") ?? "").trim();
    const role = form.get("role") === "admin" ? "admin" : "member";
    // The mail links to /accept-invitation/:id (routes/accept-invitation.$id.tsx).
    await auth.createInvitation({ body: { email, role, organizationId }, ...remix.onBehalfOf(args) });
    return { invited: email, error: null };
  } catch (error) {
    return { invited: null, error: errorMessage(error) };
  }
}

export default function Organization() {
  const organization = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <main>
      <h1>{organization.name}</h1>
      {result?.error ? <p role="alert">{result.error}</p> : null}
      {result?.invited ? <p role="status">{t.invited(result.invited)}</p> : null}
      <h2>{t.members}</h2>
      <ul>
        {organization.members.map((member) => (
          <li key={member.id}>
            {member.name} ({member.email}) · {t.roles[member.role as keyof typeof t.roles] ?? member.role}
            {member.isYou ? ` · ${t.you}` : ""}
          </li>
        ))}
      </ul>
      {organization.invitations.length > 0 ? (
        <>
          <h2>{t.pending}</h2>
          <ul>
            {organization.invitations.map((invitation) => (
              <li key={invitation.id}>
                {invitation.email} · {t.roles[invitation.role as keyof typeof t.roles] ?? invitation.role}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <h2>{t.invite}</h2>
      <Form method="post">
        <input type="hidden" name="organizationId" value={organization.id} />
        <label>
          {t.email} <input name="email" type="email" autoComplete="off" required />
        </label>
        <label>
          {t.role}{" "}
          <select name="role" defaultValue="member">
            <option value="member">{t.roles.member}</option>
            <option value="admin">{t.roles.admin}</option>
          </select>
        </label>
        <button type="submit">{t.inviteSubmit}</button>
      </Form>
      <Form method="post">
        <input type="hidden" name="organizationId" value={organization.id} />
        <input type="hidden" name="intent" value="leave" />
        <button type="submit">{t.leave}</button>
      </Form>
      <p>
        <Link to="/organizations">{t.back}</Link>
      </p>
    </main>
  );
}
