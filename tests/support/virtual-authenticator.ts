import type { CDPSession, Page } from "playwright-core";

export interface VirtualAuthenticator {
  cdp: CDPSession;
  authenticatorId: string;
}

/**
 * Chromium's virtual platform authenticator on the page (the DevTools protocol's WebAuthn domain):
 * a passkey store with user verification that answers every ceremony at once, conditional (autofill)
 * requests included, as a person who picks the passkey would.
 */
export async function addVirtualAuthenticator(page: Page): Promise<VirtualAuthenticator> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable", { enableUI: false });
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}
