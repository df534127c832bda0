import {
  getPasskeyPolicyContract,
  type PasskeyPolicy,
} from "../../../../contracts/organization-passkey-policy.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import { readAsMember } from "../../endpoints/guards.ts";
import { findPasskeyPolicy } from "../passkey-policy.ts";

/** GET /organization/get-passkey-policy: any member reads it (they are the ones it asks for a passkey). */
export const getPasskeyPolicy = defineEndpoint(getPasskeyPolicyContract, {
  handler(ctx): Promise<PasskeyPolicy> {
    return readAsMember(ctx, ctx.query.organizationId, (organizationId) =>
      findPasskeyPolicy(ctx.auth, organizationId),
    );
  },
});
