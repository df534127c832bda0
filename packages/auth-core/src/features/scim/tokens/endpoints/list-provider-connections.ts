import { listScimConnectionsContract, type ScimConnection } from "../../../../contracts/scim-tokens.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import { requireDomainManager } from "../../../sso-domains/index.ts";
import { listScimConnections } from "../service.ts";

/** GET /scim/list-provider-connections: names and dates, never a token. */
export const listScimProviderConnections = defineEndpoint(listScimConnectionsContract, {
  async handler(ctx): Promise<{ providers: ScimConnection[] }> {
    const { organizationId } = await requireDomainManager(ctx, ctx.query.organizationId);
    return { providers: await listScimConnections(ctx.auth, organizationId) };
  },
});
