import type { SsoProviderList } from "../../../contracts/sso.ts";
import { listSsoProvidersContract } from "../../../contracts/sso.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { listManagedProviders, toSsoProvider } from "../service.ts";

/** GET /sso/providers: the connections of the organizations the caller owns or administers. */
export const listSsoProviders = defineEndpoint(listSsoProvidersContract, {
  async handler(ctx): Promise<SsoProviderList> {
    const docs = await listManagedProviders(ctx.auth, ctx.session!);
    return { providers: await Promise.all(docs.map((doc) => toSsoProvider(ctx.auth, doc))) };
  },
});
