/**
 * Demo data for `pnpm dev`, written once: only into a database without users. Everything goes through
 * `auth.api` except what no API may do for a first user — the admin role and the verified flag of
 * made-up addresses — which the operator entry's setSeededUserFields sets through the core's users.
 */
import type { Auth } from "@tessera/auth-core";
import { createOperatorApi, setSeededUserFields } from "@tessera/auth-core/operator";

const DEMO_ADMIN = { email: "admin@example.com", password: "tessera-demo-admin", name: "Ada Admin" };
const DEMO_PASSWORD = "tessera-demo-user";
const DEMO_USERS = [
  { email: "grace@example.com", name: "Grace Hopper" },
  { email: "alan@example.com", name: "Alan Turing" },
  { email: "linus@example.com", name: "Linus Torvalds" },
  { email: "barbara@example.com", name: "Barbara Liskov" },
];
const DEMO_INVITEE = "margaret@example.com";

export interface SeededDemo {
  admin: { email: string; password: string };
  users: { email: string; password: string }[];
}

/** Returns the accounts created, or null when the database already had users. */
export async function seedDemoData(auth: Auth): Promise<SeededDemo | null> {
  const { data } = await createOperatorApi(auth, "seed").listUsers({ query: { limit: 1 } });
  if (data.total > 0) return null;
  const admin = await signUp(auth, DEMO_ADMIN.email, DEMO_ADMIN.password, DEMO_ADMIN.name);
  const people = [];
  for (const user of DEMO_USERS) people.push(await signUp(auth, user.email, DEMO_PASSWORD, user.name));
  await setSeededUserFields(auth, admin.id, { emailVerified: true, role: "admin" });
  for (const person of people) await setSeededUserFields(auth, person.id, { emailVerified: true });

  const [grace, alan, linus, barbara] = people as [Person, Person, Person, Person];
  const acme = await auth.api.createOrganization({
    body: { name: "Acme Corporation", slug: "acme" },
    headers: grace.headers,
  });
  const acmeId = acme.data.id;
  await auth.api.addMember({ body: { userId: alan.id, role: "admin", organizationId: acmeId } });
  await auth.api.addMember({ body: { userId: linus.id, role: "member", organizationId: acmeId } });
  const team = await auth.api.createTeam({
    body: { name: "Platform", organizationId: acmeId },
    headers: grace.headers,
  });
  await auth.api.addTeamMember({
    body: { teamId: team.data.id, userId: alan.id, organizationId: acmeId },
    headers: grace.headers,
  });
  await auth.api.createInvitation({
    body: { email: DEMO_INVITEE, role: "member", organizationId: acmeId },
    headers: grace.headers,
  });
  const globex = await auth.api.createOrganization({
    body: { name: "Globex", slug: "globex" },
    headers: barbara.headers,
  });
  await auth.api.addMember({ body: { userId: grace.id, role: "member", organizationId: globex.data.id } });
  // The sign-ups' sessions were only for the calls above: nobody should find them in their list.
  for (const person of [admin, ...people]) await auth.api.signOut({ headers: person.headers });
  return {
    admin: { email: DEMO_ADMIN.email, password: DEMO_ADMIN.password },
    users: DEMO_USERS.map((user) => ({ email: user.email, password: DEMO_PASSWORD })),
  };
}

interface Person {
  id: string;
  headers: Headers;
}

async function signUp(auth: Auth, email: string, password: string, name: string): Promise<Person> {
  const result = await auth.api.signUpEmail({ body: { email, password, name } });
  const cookie = result.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  return { id: result.data.user.id, headers: new Headers({ cookie }) };
}
