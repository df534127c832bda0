import { exportUserDataContract, type UserExport } from "../../../contracts/user-export.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { exportUserData } from "../service.ts";

/**
 * GET /export-user-data: "download my data" (GDPR articles 15 and 20). Read from the database, not
 * the cookie cache (a revoked session must not download anything), and refused to an
 * administrator's impersonation session, as the other actions that hand over the account's data
 * (docs/security.md "The user's own data").
 */
export const exportUserDataEndpoint = defineEndpoint(exportUserDataContract, {
  sensitive: true,
  highRisk: true,
  async handler(ctx): Promise<UserExport> {
    return exportUserData(ctx.auth, ctx.session!.user);
  },
});
