import {
  type AuthComponents,
  createAuthClient,
  createAuthComponents,
  type ReactAuthClient,
} from "@tessera/auth-core/react";
import { buildRoleTable } from "@tessera/auth-core/roles";
import { ObjectId } from "mongodb";
import { createElement, type ReactNode } from "react";
import { act, create, type ReactTestRenderer } from "react-test-renderer";
import { describe, expect, it } from "vitest";
import { browserLikeFetch, liveServerForFile, waitFor } from "./live-server.ts";

/**
 * The caller's role on the page: `useActiveMemberRole`, the synchronous `checkRolePermission` over
 * the app's role table (the server's rule, custom roles included), `<SignedIn>`, `<SignedOut>` and
 * `<Protect>`, against the live server with custom roles.
 */
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const CUSTOM_ROLES = {
  manager: { member: ["update", "delete"], invitation: ["create"] },
  viewer: {},
  admin: { team: ["create"] },
};
const ROLE_TABLE = buildRoleTable(CUSTOM_ROLES, "owner");

const live = liveServerForFile({ organization: { roles: CUSTOM_ROLES } });

const PASSWORD = "correct horse battery";

function makeClient() {
  const browser = browserLikeFetch(live.origin);
  const client = createAuthClient({
    baseURL: live.origin,
    fetchOptions: { customFetchImpl: browser.fetch },
    roles: ROLE_TABLE,
  });
  return { client, browser };
}

/** A signed-in user with an active organization of their own, and their member row's id. */
async function ownerOfOrganization(name: string) {
  const { client, browser } = makeClient();
  await client.signUp.email({ name, email: `${name.toLowerCase()}@example.com`, password: PASSWORD });
  const created = await client.organization.create({ name, slug: name.toLowerCase() });
  if (created.error) throw new Error(created.error.message);
  return { client, browser, organizationId: created.data.id };
}

/** Test set-up: gives the caller's member row another role directly in the database. */
async function setOwnRole(organizationId: string, role: string) {
  await live.db
    .collection("members")
    .updateOne({ organizationId: ObjectId.createFromHexString(organizationId) }, { $set: { role } });
}

const text = (renderer: ReactTestRenderer) => JSON.stringify(renderer.toJSON());

describe("organization.checkRolePermission", () => {
  const QUERIES: Record<string, string[]>[] = [
    { member: ["update"] },
    { member: ["update", "delete"] },
    { member: ["create"] },
    { invitation: ["create"] },
    { team: ["create"] },
    { organization: ["update"] },
    { organization: ["delete"] },
    { member: ["update"], invitation: ["create"] },
  ];

  it("answers, with no request, what the server's has-permission answers for each role and request", async () => {
    const { client, browser, organizationId } = await ownerOfOrganization("Checker");
    const decided: string[] = [];
    for (const role of ["owner", "admin", "member", "manager", "viewer", "manager,viewer", "nobody"]) {
      await setOwnRole(organizationId, role);
      for (const permissions of QUERIES) {
        const server = await client.organization.hasPermission({ permissions });
        const before = browser.seen.length;
        const local = client.organization.checkRolePermission({ role, permissions });
        expect(browser.seen.length).toBe(before);
        expect(local, `${role} ${JSON.stringify(permissions)}`).toBe(server.data?.success);
        if (local) decided.push(`${role} ${JSON.stringify(permissions)}`);
      }
    }
    // The custom table is in force: admin is the app's (teams only), manager grants what it lists.
    expect(decided).toContain('manager {"member":["update"],"invitation":["create"]}');
    expect(decided).toContain('admin {"team":["create"]}');
    expect(decided).not.toContain('admin {"member":["update"]}');
  });

  it("uses the default roles when the client is given no table", () => {
    const { organization } = createAuthClient({ baseURL: live.origin });
    expect(organization.checkRolePermission({ role: "admin", permissions: { member: ["update"] } })).toBe(
      true,
    );
    expect(
      organization.checkRolePermission({ role: "admin", permissions: { organization: ["delete"] } }),
    ).toBe(false);
    expect(organization.checkRolePermission({ role: "manager", permissions: { member: ["update"] } })).toBe(
      false,
    );
  });
});

function Page(props: { client: ReactAuthClient; components: AuthComponents; children?: ReactNode }) {
  const { SignedIn, SignedOut, Protect } = props.components;
  const role = props.client.useActiveMemberRole();
  return createElement(
    "div",
    null,
    createElement(SignedIn, null, "in;"),
    createElement(SignedOut, null, "out;"),
    createElement(Protect, { role: "owner", fallback: "not-owner;" }, "owner;"),
    createElement(Protect, { permission: { invitation: ["create"] }, fallback: "no-invite;" }, "invite;"),
    createElement(Protect, { fallback: "anonymous;" }, "member-area;"),
    `role:${role.data?.role ?? "-"}`,
  );
}

describe("useActiveMemberRole and the components", () => {
  it("show what the session and the caller's role in the active organization allow, and follow changes", async () => {
    const { client, browser } = makeClient();
    let renderer!: ReactTestRenderer;
    await act(async () => {
      renderer = create(createElement(Page, { client, components: createAuthComponents(client) }));
    });
    const shows = (expected: string) => act(() => waitFor(() => text(renderer).includes(expected)));
    await shows('"out;","not-owner;","no-invite;","anonymous;","role:-"');
    expect(browser.count("/organization/get-active-member-role")).toBe(0);

    await act(async () => {
      await client.signUp.email({ name: "Rita", email: "rita@example.com", password: PASSWORD });
    });
    await shows('"in;","not-owner;","no-invite;","member-area;","role:-"');

    let organizationId = "";
    await act(async () => {
      const created = await client.organization.create({ name: "Roles", slug: "roles" });
      organizationId = created.data?.id ?? "";
    });
    await shows('"in;","owner;","invite;","member-area;","role:owner"');

    await setOwnRole(organizationId, "viewer");
    await act(async () => {
      await client.$store.activeMemberRole.refetch();
    });
    await shows('"in;","not-owner;","no-invite;","member-area;","role:viewer"');

    await act(async () => {
      await client.signOut();
    });
    await shows('"out;","not-owner;","no-invite;","anonymous;","role:-"');
    renderer.unmount();
  });
});

/** Records what useSession gives on each render. */
function RefetchBadge(props: { client: ReactAuthClient; seen: string[] }) {
  const { data, isPending, isRefetching } = props.client.useSession();
  props.seen.push(
    `${isPending ? "pending" : (data?.user.name ?? "none")}${isRefetching ? " refetching" : ""}`,
  );
  return null;
}

describe("useSession's isRefetching", () => {
  it("is true while a re-read is in flight with data shown, false before the first answer and after", async () => {
    const { client } = makeClient();
    await client.signUp.email({ name: "Refetch", email: "refetch@example.com", password: PASSWORD });
    const seen: string[] = [];
    let renderer!: ReactTestRenderer;
    await act(async () => {
      renderer = create(createElement(RefetchBadge, { client, seen }));
    });
    await act(() => waitFor(() => seen.at(-1) === "Refetch"));
    await act(async () => {
      const refetch = client.$store.session.refetch();
      expect(client.$store.session.get()).toMatchObject({ isRefetching: true, isPending: false });
      await refetch;
    });
    expect([...new Set(seen)]).toEqual(["pending", "Refetch", "Refetch refetching"]);
    expect(seen.at(-1)).toBe("Refetch");
    renderer.unmount();
  });
});
