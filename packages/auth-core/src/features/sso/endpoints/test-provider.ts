import { type SsoProviderTest, testSsoProviderContract } from "../../../contracts/sso.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { testConnection } from "../connections.ts";
import { findManagedProvider } from "../service.ts";

/**
 * POST /sso/test-provider: "test this connection" before turning it on (issue 31 §2). What it
 * checks fetches the customer's URLs through the outbound guard, like a sign-in does.
 */
export const testSsoProvider = defineEndpoint(testSsoProviderContract, {
  async handler(ctx): Promise<SsoProviderTest> {
    const provider = answerRefusal(await findManagedProvider(ctx.auth, ctx.session!, ctx.body.providerId));
    return { success: true, checks: answerRefusal(await testConnection(ctx.auth, provider)) };
  },
});
