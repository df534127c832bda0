import type { SsoProviderList } from "../../../contracts/sso.ts";
import { listSsoProvidersContract } from "../../../contracts/sso.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { listManagedProviders, toSsoProvider } from "../service.ts";
import { requireSsoManager } from "./manager-guard.ts";

/** GET /sso/providers: the connections of the organizations the caller owns or administers (a setup link: its one). */
export const listSsoProviders = defineEndpoint(listSsoProvidersContract, {
  async handler(ctx): Promise<SsoProviderList> {
    const docs = await listManagedProviders(ctx.auth, await requireSsoManager(ctx));
    return { providers: await Promise.all(docs.map((doc) => toSsoProvider(ctx.auth, doc))) };
  },
});
