import { createAuthClient } from "@tessera/auth-core/react";
import { createElement, useState } from "react";
import { createRoot } from "react-dom/client";

/**
 * The page of tests/client/chromium.test.ts, bundled with esbuild: it shows the session through
 * useSession and signs up and out with the client. `?api=<origin>` points it at the standalone
 * server on another origin; without it, it calls /api/auth on its own origin.
 */
const params = new URLSearchParams(location.search);
const api = params.get("api");
const client = createAuthClient(api ? { baseURL: api } : {});

function App() {
  const { data, isPending, error } = client.useSession();
  const [failure, setFailure] = useState("");
  const email = params.get("email") ?? "ada@example.com";
  const shown = isPending ? "loading" : data ? `signed in as ${data.user.email}` : "signed out";
  const signUp = async () => {
    const result = await client.signUp.email({ name: "Ada", email, password: "correct horse battery" });
    setFailure(result.error ? `${result.error.code} ${result.error.status}` : "");
  };
  const signOut = async () => {
    const result = await client.signOut();
    setFailure(result.error ? `${result.error.code} ${result.error.status}` : "");
  };
  return createElement(
    "main",
    null,
    createElement("p", { id: "session" }, shown),
    createElement("p", { id: "error" }, failure || (error ? error.code : "")),
    createElement("button", { id: "sign-up", type: "button", onClick: signUp }, "Sign up"),
    createElement("button", { id: "sign-out", type: "button", onClick: signOut }, "Sign out"),
  );
}

createRoot(document.getElementById("root")!).render(createElement(App));
