import { Link } from "@remix-run/react";

export default function Index() {
  return (
    <main>
      <h1>Welcome</h1>
      <p>
        <Link to="/sign-in">Sign in</Link> or <Link to="/sign-up">create an account</Link>.
      </p>
    </main>
  );
}
