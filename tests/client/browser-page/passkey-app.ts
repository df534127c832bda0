import { createAuthClient } from "@tessera/auth-core/react";
import { createElement } from "react";
import { createRoot } from "react-dom/client";

/**
 * The page of tests/client/passkey-browser.test.ts: useSession's view of the session, the username
 * field autofill offers passkeys in, and the client as `window.auth`, which the test calls with
 * `page.evaluate` (each method's `{ data, error }` comes back as the page saw it).
 */
const client = createAuthClient();
(window as unknown as { auth: typeof client }).auth = client;

function App() {
  const { data, isPending } = client.useSession();
  const shown = isPending ? "loading" : data ? `signed in as ${data.user.email}` : "signed out";
  return createElement(
    "main",
    null,
    createElement("p", { id: "session" }, shown),
    createElement("input", { id: "username", name: "username", autoComplete: "username webauthn" }),
  );
}

createRoot(document.getElementById("root")!).render(createElement(App));
