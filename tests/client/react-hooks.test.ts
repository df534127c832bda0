import type { SessionAndUser } from "@tessera/auth-core/client";
import { createAuthClient, type ReactAuthClient } from "@tessera/auth-core/react";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { act, create, type ReactTestRenderer } from "react-test-renderer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SoftwareAuthenticator } from "#test/software-authenticator.ts";
import { browserLikeFetch, type LiveServer, startLiveServer, waitFor } from "./live-server.ts";

/**
 * The React hooks with React 18's own renderers (react-test-renderer in the "browser", react-dom/server
 * for server rendering) against the live standalone server.
 */
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let live: LiveServer;
beforeAll(async () => {
  live = await startLiveServer();
});
afterAll(async () => {
  await live?.close();
});

const PASSWORD = "correct horse battery";

function makeClient() {
  const browser = browserLikeFetch(live.origin);
  const client = createAuthClient({ baseURL: live.origin, fetchOptions: { customFetchImpl: browser.fetch } });
  return { client, browser };
}

/** What a component shows of useSession. */
function SessionBadge(props: { client: ReactAuthClient; initial?: SessionAndUser | null; log?: string[] }) {
  const { data, isPending, error } = props.client.useSession(props.initial);
  const shown = isPending
    ? "loading"
    : error
      ? `error: ${error.code}`
      : data
        ? `signed in as ${data.user.name}`
        : "signed out";
  props.log?.push(shown);
  return createElement("p", null, shown);
}

/** What a component shows of the organization hooks. */
function Organizations(props: { client: ReactAuthClient }) {
  const list = props.client.useListOrganizations();
  const active = props.client.useActiveOrganization();
  const member = props.client.useActiveMember();
  const slugs = list.data?.map((organization) => organization.slug).join(",") ?? "-";
  return createElement(
    "p",
    null,
    `list:${slugs} active:${active.data?.slug ?? "-"} role:${member.data?.role ?? "-"}`,
  );
}

function text(renderer: ReactTestRenderer): string {
  return JSON.stringify(renderer.toJSON());
}

describe("useSession", () => {
  it("shows pending, then the session read from the server, then follows sign-in and sign-out", async () => {
    const { client } = makeClient();
    let renderer!: ReactTestRenderer;
    await act(async () => {
      renderer = create(createElement(SessionBadge, { client }));
    });
    await act(() => waitFor(() => text(renderer).includes("signed out")));
    await act(async () => {
      await client.signUp.email({ name: "Ada", email: "ada@example.com", password: PASSWORD });
    });
    await act(() => waitFor(() => text(renderer).includes("signed in as Ada")));
    await act(async () => {
      await client.signOut();
    });
    await act(() => waitFor(() => text(renderer).includes("signed out")));
    renderer.unmount();
  });

  it("with initial data, renders it at once and sends no request", async () => {
    const { client: writer } = makeClient();
    await writer.signUp.email({ name: "Grace", email: "grace@example.com", password: PASSWORD });
    const { data: session } = await writer.getSession();
    const { client, browser } = makeClient();
    const log: string[] = [];
    let renderer!: ReactTestRenderer;
    await act(async () => {
      renderer = create(createElement(SessionBadge, { client, initial: session, log }));
    });
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(log.length).toBeGreaterThan(0);
    expect(new Set(log)).toEqual(new Set(["signed in as Grace"]));
    expect(browser.seen).toEqual([]);
    renderer.unmount();
  });

  it("renders the initial data on the server, sends nothing, and leaves the shared store unset", async () => {
    const { client: writer } = makeClient();
    await writer.signUp.email({ name: "Ken", email: "ken@example.com", password: PASSWORD });
    const { data: session } = await writer.getSession();
    const { client, browser } = makeClient();
    // As a Remix loader hands it over: through JSON, dates as strings.
    const fromLoader = JSON.parse(JSON.stringify(session)) as SessionAndUser;
    expect(renderToString(createElement(SessionBadge, { client, initial: fromLoader }))).toBe(
      "<p>signed in as Ken</p>",
    );
    expect(renderToString(createElement(SessionBadge, { client, initial: null }))).toBe("<p>signed out</p>");
    expect(renderToString(createElement(SessionBadge, { client }))).toBe("<p>loading</p>");
    expect(client.$store.session.get().isPending).toBe(true);
    expect(browser.seen).toEqual([]);
  });
});

describe("organization hooks", () => {
  it("useListOrganizations, useActiveOrganization and useActiveMember follow organization calls", async () => {
    const { client } = makeClient();
    await client.signUp.email({ name: "Barbara", email: "barbara@example.com", password: PASSWORD });
    let renderer!: ReactTestRenderer;
    await act(async () => {
      renderer = create(createElement(Organizations, { client }));
    });
    await act(() => waitFor(() => text(renderer).includes("list: active:- role:-")));
    await act(async () => {
      await client.organization.create({ name: "Acme", slug: "acme" });
    });
    await act(() => waitFor(() => text(renderer).includes("list:acme active:acme role:owner")));
    renderer.unmount();
  });
});

/** What a component shows of useListPasskeys: the names, "none" or "signed out". */
function Passkeys(props: { client: ReactAuthClient }) {
  const { data, isPending } = props.client.useListPasskeys();
  const shown = isPending
    ? "loading"
    : data
      ? data.map((passkey) => passkey.name).join(",") || "none"
      : "signed out";
  return createElement("p", null, shown);
}

describe("useListPasskeys", () => {
  it("follows a passkey added, renamed and deleted, and sign-out", async () => {
    const { client, browser } = makeClient();
    let renderer!: ReactTestRenderer;
    await act(async () => {
      renderer = create(createElement(Passkeys, { client }));
    });
    await act(() => waitFor(() => text(renderer).includes("signed out")));
    // Signed out, the list is not asked for (it would answer 401).
    expect(browser.count("/passkey/list-user-passkeys")).toBe(0);
    await act(async () => {
      await client.signUp.email({ name: "Pia", email: "pia@example.com", password: PASSWORD });
    });
    await act(() => waitFor(() => text(renderer).includes("none")));
    const authenticator = new SoftwareAuthenticator({ origin: live.origin });
    let id = "";
    await act(async () => {
      const options = await client.passkey.generateRegisterOptions();
      const response = authenticator.createCredential(options.data!);
      id = (await client.passkey.verifyRegistration({ response, name: "Laptop" })).data!.id;
    });
    await act(() => waitFor(() => text(renderer).includes("Laptop")));
    await act(async () => {
      await client.passkey.updatePasskey({ id, name: "Work" });
    });
    await act(() => waitFor(() => text(renderer).includes("Work")));
    await act(async () => {
      await client.passkey.deletePasskey({ id });
    });
    await act(() => waitFor(() => text(renderer).includes("none")));
    await act(async () => {
      await client.signOut();
    });
    await act(() => waitFor(() => text(renderer).includes("signed out")));
    renderer.unmount();
  });
});
