import type { Call, CeremonyState, PasskeyCeremonies } from "./passkey-types.ts";

/**
 * The passkey methods of the client (docs/client.md "Passkeys"): options from the server, the
 * browser's WebAuthn call through @simplewebauthn/browser, the answer back to the server. The
 * ceremonies (passkey-ceremonies.ts) and the library are imported only when a passkey method runs,
 * both at once, so a page that signs in by password and reads the session carries neither
 * (tests/client/bundle.test.ts).
 */
export function createPasskeyMethods(call: Call): PasskeyCeremonies {
  const state: CeremonyState = { current: null };
  function lazy<K extends keyof PasskeyCeremonies>(name: K): PasskeyCeremonies[K] {
    return (async (...args: unknown[]) => {
      let loaded: [typeof import("./passkey-ceremonies.ts"), typeof import("@simplewebauthn/browser")];
      try {
        loaded = await Promise.all([import("./passkey-ceremonies.ts"), import("@simplewebauthn/browser")]);
      } catch (error) {
        // The chunks could not be fetched (offline, a deploy replaced them): a network failure.
        const message = error instanceof Error ? error.message : String(error);
        return { data: null, error: { status: 0, code: "NETWORK_ERROR", message } };
      }
      const [ceremonies, browser] = loaded;
      return (ceremonies[name] as (...a: unknown[]) => unknown)(call, state, browser, ...args);
    }) as PasskeyCeremonies[K];
  }
  return { signIn: lazy("signIn"), addPasskey: lazy("addPasskey"), signUp: lazy("signUp") };
}
