import { listScimConnectionsContract, type ScimConnection } from "../../../../contracts/scim-tokens.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import { listScimConnections } from "../service.ts";
import { requireScimManager } from "./guards.ts";

/** GET /scim/list-provider-connections: names and dates, never a token. */
export const listScimProviderConnections = defineEndpoint(listScimConnectionsContract, {
  async handler(ctx): Promise<{ providers: ScimConnection[] }> {
    const { organizationId } = await requireScimManager(ctx, ctx.query.organizationId);
    return { providers: await listScimConnections(ctx.auth, organizationId) };
  },
});
