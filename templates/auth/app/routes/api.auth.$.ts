import { remix } from "~/auth.server";

// Everything under /api/auth/*: the core's resource route. It passes the client's address when the
// server puts it in the load context (`remoteAddress`); otherwise set advanced.trustedProxies.
export const loader = remix.handler;
export const action = remix.handler;
