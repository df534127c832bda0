import { createAuthClient } from "@tessera/auth-core/client";
import { createAuthClient as createReactClient, type ReactAuthClient } from "@tessera/auth-core/react";
import { createElement, Fragment } from "react";
import { act, create, type ReactTestRenderer } from "react-test-renderer";
import { describe, expect, it } from "vitest";
import { browserLikeFetch, liveServerForFile, waitFor } from "./live-server.ts";

/**
 * The client option `organizationId` and React's `<OrganizationProvider>` (docs/decisions.md "Active
 * organization per request") against the live standalone server: one session (one cookie jar), two
 * clients or two subtrees in two organizations at once, the session's active organization untouched.
 */
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const live = liveServerForFile();

/** Ada, signed in, in acme and globex (globex, created last, is the session's active one). */
async function signedInWithTwoOrganizations(email: string) {
  const browser = browserLikeFetch(live.origin);
  const options = { baseURL: live.origin, fetchOptions: { customFetchImpl: browser.fetch } };
  const client = createAuthClient(options);
  await client.signUp.email({ name: "Ada", email, password: "correct horse battery" });
  const suffix = email.split("@")[0];
  const acme = await client.organization.create({ name: "Acme", slug: `acme-${suffix}` });
  const globex = await client.organization.create({ name: "Globex", slug: `globex-${suffix}` });
  return { browser, options, client, acme: acme.data!, globex: globex.data! };
}

describe("the client option organizationId", () => {
  it("two clients of one session work in two organizations at once; the session keeps its own", async () => {
    const { options, client, acme, globex } = await signedInWithTwoOrganizations("tabs@example.com");
    const tabA = createAuthClient({ ...options, organizationId: acme.id });
    const tabB = createAuthClient({ ...options, organizationId: globex.id });
    const [fullA, fullB] = await Promise.all([
      tabA.organization.getFullOrganization(),
      tabB.organization.getFullOrganization(),
    ]);
    expect([fullA.data?.slug, fullB.data?.slug]).toEqual([acme.slug, globex.slug]);
    const invited = await tabA.organization.inviteMember({ email: "grace@example.com", role: "member" });
    expect(invited.data?.organizationId).toBe(acme.id);
    const session = await client.getSession();
    expect(session.data?.session.activeOrganizationId).toBe(globex.id);
    expect(await live.db.collection("invitations").countDocuments({ email: "grace@example.com" })).toBe(1);
  });

  it("an organization the caller is not in is refused with 403, and nothing is written", async () => {
    const { options } = await signedInWithTwoOrganizations("foreign@example.com");
    const other = await signedInWithTwoOrganizations("other@example.com");
    const intruder = createAuthClient({ ...options, organizationId: other.acme.id });
    const full = await intruder.organization.getFullOrganization();
    expect(full.error).toMatchObject({
      status: 403,
      code: "NOT_A_MEMBER_OF_ORGANIZATION",
      message: "You are not a member of this organization",
    });
    const invited = await intruder.organization.inviteMember({ email: "eve@example.com", role: "member" });
    expect(invited.error?.status).toBe(403);
    expect(await live.db.collection("invitations").countDocuments({ email: "eve@example.com" })).toBe(0);
  });
});

/** What a subtree shows of the organization hooks. */
function ActiveOrganization(props: { client: ReactAuthClient; label: string }) {
  const active = props.client.useActiveOrganization();
  const member = props.client.useActiveMember();
  return createElement("p", null, `${props.label}:${active.data?.slug ?? "-"}:${member.data?.role ?? "-"}`);
}

describe("<OrganizationProvider organizationId>", () => {
  it("each subtree's hooks read its own organization; outside any provider, the session's", async () => {
    const { browser, acme, globex } = await signedInWithTwoOrganizations("react@example.com");
    const client = createReactClient({
      baseURL: live.origin,
      fetchOptions: { customFetchImpl: browser.fetch },
    });
    const { OrganizationProvider } = client;
    let renderer!: ReactTestRenderer;
    await act(async () => {
      renderer = create(
        createElement(
          Fragment,
          null,
          createElement(
            OrganizationProvider,
            { organizationId: acme.id },
            createElement(ActiveOrganization, { client, label: "left" }),
          ),
          createElement(
            OrganizationProvider,
            { organizationId: globex.id },
            createElement(ActiveOrganization, { client, label: "right" }),
          ),
          createElement(ActiveOrganization, { client, label: "outside" }),
        ),
      );
    });
    const shown = () => JSON.stringify(renderer.toJSON());
    await act(() =>
      waitFor(
        () =>
          shown().includes(`left:${acme.slug}:owner`) &&
          shown().includes(`right:${globex.slug}:owner`) &&
          shown().includes(`outside:${globex.slug}:owner`),
      ),
    );
    const sent = await live.db.collection("sessions").find({}).toArray();
    expect(sent.some((row) => row.activeOrganizationId === globex.id)).toBe(true);
    renderer.unmount();
  });
});
