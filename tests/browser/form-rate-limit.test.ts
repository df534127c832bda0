import { describe, expect, test } from "vitest";
import { DEMO, useTestApp } from "./app-harness.ts";

/**
 * The app's own forms are limited like the API they call (@tessera/auth-core/remix onBehalfOf):
 * a visitor cannot try passwords through the sign-in form faster than through /api/auth. Real
 * HTTP form posts against the built app, with its rate limit on.
 */
const app = useTestApp({ DEMO_RATE_LIMIT: "1" });

function postForm(path: string, fields: Record<string, string>): Promise<Response> {
  return fetch(`${app.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: app.url },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
}

describe("the sign-in form under the rate limit", () => {
  test("the 4th attempt in 10 s says to wait and signs nobody in, even with the right password", async () => {
    const sessionsBefore = await app.db.collection("sessions").countDocuments();
    for (let i = 0; i < 3; i++) {
      const refused = await postForm("/sign-in", { email: DEMO.grace, password: "not the password" });
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain("Invalid email or password");
    }
    const limited = await postForm("/sign-in", { email: DEMO.grace, password: DEMO.password });
    expect(limited.status).toBe(400);
    expect(limited.headers.getSetCookie()).toEqual([]);
    expect(await limited.text()).toContain("Too many requests. Please try again later.");
    expect(await app.db.collection("sessions").countDocuments()).toBe(sessionsBefore);
  });
});
