import { createAuthClient } from "@tessera/auth-core/react";

/**
 * The browser side of the app: the header reads the session through `useSession`, seeded with what
 * the root loader read (no request, no flash), and re-read by the client when the tab regains focus,
 * so a sign-out in another tab shows here too. Forms still go through loaders and actions.
 */
export const authClient = createAuthClient();
