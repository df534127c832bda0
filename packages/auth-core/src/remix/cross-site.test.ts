import { describe, expect, it } from "vitest";
import { isCrossSiteForm } from "./cross-site.ts";

/** What the app's server sends to the refusal page instead of the page's action (cross-site.ts). */
function form(method: string, path: string, headers: Record<string, string>) {
  const all = new Headers(headers);
  return { method, path, header: (name: string) => all.get(name) };
}

describe("a form sent from another site", () => {
  it.each([
    ["another site's Origin", "POST", { origin: "https://evil.example", host: "app.example" }],
    [
      "Origin null (a sandboxed frame, a redirect across sites)",
      "POST",
      { origin: "null", host: "app.example" },
    ],
    ["no Origin at all", "POST", { host: "app.example" }],
    ["an Origin that is no URL", "POST", { origin: "app.example", host: "app.example" }],
    ["the same host on another port", "POST", { origin: "http://app.example:8080", host: "app.example" }],
    [
      "a forwarded host that differs from Origin",
      "POST",
      {
        origin: "https://app.example",
        host: "internal:3000",
        "x-forwarded-host": "evil.example, app.example",
      },
    ],
    ["DELETE from another site", "DELETE", { origin: "https://evil.example", host: "app.example" }],
  ])("%s is refused", (_case, method, headers) => {
    expect(isCrossSiteForm(form(method, "/account", headers))).toBe(true);
  });

  it.each([
    [
      "a POST from the app's own page",
      "POST",
      "/account",
      { origin: "http://localhost:5173", host: "localhost:5173" },
    ],
    [
      "behind a proxy: the forwarded host is the Origin's",
      "POST",
      "/account",
      {
        origin: "https://app.example",
        host: "127.0.0.1:3000",
        "x-forwarded-host": "app.example",
      },
    ],
    [
      "a GET (a link from another site)",
      "GET",
      "/account",
      { origin: "https://evil.example", host: "app.example" },
    ],
    ["a HEAD", "HEAD", "/account", { host: "app.example" }],
    [
      "the auth API (the core checks its Origin)",
      "POST",
      "/api/auth/sign-out",
      { origin: "https://evil.example", host: "app.example" },
    ],
    ["the auth API's root", "POST", "/api/auth", { host: "app.example" }],
  ])("%s passes", (_case, method, path, headers) => {
    expect(isCrossSiteForm(form(method, path, headers))).toBe(false);
  });

  it("a path that only starts like the auth API is a page like any other", () => {
    expect(
      isCrossSiteForm(form("POST", "/api/authx", { origin: "https://evil.example", host: "app.example" })),
    ).toBe(true);
  });
});
