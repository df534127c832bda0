import { type SsoProviderTest, testSsoProviderContract } from "../../../contracts/sso.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { testManagedConnection } from "../manage.ts";
import { requireSsoManager } from "./manager-guard.ts";

/**
 * POST /sso/test-provider: "test this connection" before turning it on (issue 31 §2). What it
 * checks fetches the customer's URLs through the outbound guard, like a sign-in does. Audited,
 * passed or not (a setup link's holder runs it too).
 */
export const testSsoProvider = defineEndpoint(testSsoProviderContract, {
  async handler(ctx): Promise<SsoProviderTest> {
    const manager = await requireSsoManager(ctx);
    return answerRefusal(await testManagedConnection(ctx.auth, ctx, manager, ctx.body.providerId));
  },
});
