import { defineEndpoint } from "../../../http/define-endpoint.ts";

export const ok = defineEndpoint({
  name: "ok",
  method: "GET",
  path: "/ok",
  auth: "none",
  async handler(): Promise<{ ok: true }> {
    return { ok: true };
  },
});
