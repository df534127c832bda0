import { remix } from "~/auth.server";

// The whole Tessera API under /api/auth/*: the core's resource route, with the client's address
// that server.js puts in the load context (@tessera/auth-core/remix).
export const loader = remix.handler;
export const action = remix.handler;
