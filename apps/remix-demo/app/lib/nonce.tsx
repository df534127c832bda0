import { createContext, type ReactNode, useContext } from "react";

/**
 * The per-request CSP nonce of the inline scripts Remix renders (docs/security.md, "Response headers").
 * The server provides it; in the browser the context is empty: a nonce attribute reads back as ""
 * once a page has a CSP header (nonce hiding), so "" is also what hydration finds.
 */
const NonceContext = createContext("");

export function NonceProvider({ value, children }: { value: string; children: ReactNode }) {
  return <NonceContext.Provider value={value}>{children}</NonceContext.Provider>;
}

export function useNonce(): string {
  return useContext(NonceContext);
}
