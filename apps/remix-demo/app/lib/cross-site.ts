/**
 * The body of the 403 the app answers to a form posted from another site — by server.js (a foreign
 * Origin, turned into GET /cross-site-refused) and by assertSameOrigin (no Origin, or one of no
 * trusted origin): the root ErrorBoundary shows its own page for it.
 */
export const CROSS_SITE_REFUSED = "Cross-site request refused";
