declare module "@remix-run/node" {
  interface AppLoadContext {
    /** The TCP peer of the request (server.js), for auth.handler's client-IP rules. */
    remoteAddress: string | null;
  }
}

export {};
