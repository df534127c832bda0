import { createAuthClient, type ReactAuthClient } from "@tessera/auth-core/react";
import { createElement } from "react";
import { act, create, type ReactTestRenderer } from "react-test-renderer";
import { describe, expect, it } from "vitest";
import { browserLikeFetch, liveServerForFile, waitFor } from "./live-server.ts";

/**
 * A public page that uses every hook sends, for a signed-out visitor, one session read and no
 * organization request: each would answer 401, a failed request in the browser's console.
 */
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const live = liveServerForFile();

function EveryHook(props: { client: ReactAuthClient }) {
  const { client } = props;
  const states = [
    client.useSession(),
    client.useActiveOrganization(),
    client.useListOrganizations(),
    client.useActiveMember(),
    client.useActiveMemberRole(),
  ];
  return createElement(
    "p",
    null,
    states
      .map((state) =>
        state.isPending ? "pending" : `${JSON.stringify(state.data)}/${state.error?.status ?? "-"}`,
      )
      .join(" "),
  );
}

const shown = (renderer: ReactTestRenderer) =>
  (renderer.toJSON() as { children: string[] }).children.join("");
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 60));

describe("a signed-out page", () => {
  it("with every hook sends one get-session and no organization request, and shows null everywhere", async () => {
    const browser = browserLikeFetch(live.origin);
    const statuses: number[] = [];
    const client = createAuthClient({
      baseURL: live.origin,
      fetchOptions: {
        customFetchImpl: browser.fetch,
        onResponse: (context) => void statuses.push(context.response.status),
      },
    });
    let renderer!: ReactTestRenderer;
    await act(async () => {
      renderer = create(createElement(EveryHook, { client }));
    });
    await act(() => waitFor(() => !shown(renderer).includes("pending")));
    await act(settle);
    expect(shown(renderer)).toBe("null/- null/- null/- null/- null/-");
    expect(browser.seen).toEqual([{ method: "GET", path: "/get-session" }]);
    expect(statuses).toEqual([200]);

    // Refreshing them all while still signed out asks nothing of the organization endpoints either.
    await act(async () => {
      await Promise.all(Object.values(client.$store).map((store) => store.refetch()));
    });
    expect(browser.seen.filter((request) => request.path.startsWith("/organization/"))).toEqual([]);
    expect(statuses).not.toContain(401);
    renderer.unmount();
  });

  it("reads the organizations once someone signs in, and stops again after sign-out", async () => {
    const browser = browserLikeFetch(live.origin);
    const client = createAuthClient({
      baseURL: live.origin,
      fetchOptions: { customFetchImpl: browser.fetch },
    });
    let renderer!: ReactTestRenderer;
    await act(async () => {
      renderer = create(createElement(EveryHook, { client }));
    });
    await act(() => waitFor(() => !shown(renderer).includes("pending")));
    await act(async () => {
      await client.signUp.email({
        name: "Orgs",
        email: "orgs@example.com",
        password: "correct horse battery",
      });
      await client.organization.create({ name: "Seen", slug: "seen" });
    });
    await act(() => waitFor(() => shown(renderer).includes('"slug":"seen"')));
    expect(browser.count("/organization/list")).toBeGreaterThan(0);

    await act(async () => {
      await client.signOut();
    });
    await act(() => waitFor(() => shown(renderer) === "null/- null/- null/- null/- null/-"));
    const organizationReads = browser.seen.filter((request) =>
      request.path.startsWith("/organization/"),
    ).length;
    await act(async () => {
      await Promise.all(Object.values(client.$store).map((store) => store.refetch()));
    });
    expect(browser.seen.filter((request) => request.path.startsWith("/organization/")).length).toBe(
      organizationReads,
    );
    renderer.unmount();
  });
});
