import { createContext, createElement, type ReactNode, useContext } from "react";

export interface OrganizationProviderProps {
  /** The organization the subtree works in (an organization id): its hooks' requests name it. */
  organizationId: string;
  children?: ReactNode;
}

/**
 * `<OrganizationProvider organizationId>` of one React client: the hooks of its subtree read through
 * a client made with that `organizationId` (its requests carry the `x-tessera-organization` header,
 * docs/decisions.md "Active organization per request"), so two subtrees — two panes, two tabs'
 * roots — show two organizations with one session. Made once per React client; the scoped clients
 * are made once per organization id and kept, so every provider of one id shares its stores.
 */
export function createOrganizationScope<C>(base: C, makeClient: (organizationId: string) => C) {
  const Scoped = createContext<C | null>(null);
  const clients = new Map<string, C>();
  function clientFor(organizationId: string): C {
    let client = clients.get(organizationId);
    if (!client) {
      client = makeClient(organizationId);
      clients.set(organizationId, client);
    }
    return client;
  }
  // biome-ignore lint/correctness/noComponentHookFactories: made once per client, like its hooks
  function OrganizationProvider(props: OrganizationProviderProps): ReactNode {
    return createElement(Scoped.Provider, { value: clientFor(props.organizationId) }, props.children);
  }
  /** The client of the nearest provider, or the base client outside any. */
  // biome-ignore lint/correctness/noComponentHookFactories: made once per client, like its hooks
  function useScopedClient(): C {
    return useContext(Scoped) ?? base;
  }
  return { OrganizationProvider, useScopedClient };
}
