import { okContract } from "../../../contracts/general.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";

export const ok = defineEndpoint(okContract, {
  async handler(): Promise<{ ok: true }> {
    return { ok: true };
  },
});
