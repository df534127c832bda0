import { describe, expect, test } from "vitest";
import { DEMO, screenshot, useTestApp } from "./app-harness.ts";
import { expectHydrated, signIn, watchPage } from "./page-watch.ts";

/**
 * Personal answers are `private, no-store`, every page and route
 * data answer carries `nosniff` and a Content-Security-Policy whose nonce lets Remix's own inline
 * scripts run and nothing else. Real HTTP against the built app, then Chromium.
 */

const app = useTestApp();

/** A session cookie of a demo user, from the core's sign-in endpoint. */
async function sessionCookieOf(email: string, password: string): Promise<string> {
  const response = await fetch(`${app.url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: app.url },
    body: JSON.stringify({ email, password }),
  });
  expect(response.status).toBe(200);
  return response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
}

async function get(path: string, cookie?: string): Promise<Response> {
  const response = await fetch(`${app.url}${path}`, {
    headers: cookie ? { cookie } : {},
    redirect: "manual",
  });
  await response.arrayBuffer();
  return response;
}

function nonceOf(csp: string | null): string {
  const match = /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp ?? "");
  expect(match, csp ?? "no CSP").not.toBeNull();
  return match![1]!;
}

describe("response headers of the app", () => {
  test("every page carries nosniff and a CSP with a fresh nonce that allows only the app's scripts", async () => {
    const first = await get("/sign-in");
    const second = await get("/sign-in");
    for (const response of [first, second]) {
      expect(response.status).toBe(200);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    }
    const csp = first.headers.get("content-security-policy") ?? "";
    expect(csp).toBe(
      `default-src 'self'; script-src 'self' 'nonce-${nonceOf(csp)}'; style-src 'self'; img-src 'self' data: https: http:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'`,
    );
    expect(nonceOf(csp)).not.toBe(nonceOf(second.headers.get("content-security-policy")));
    expect(Buffer.from(nonceOf(csp), "base64")).toHaveLength(16);
    const html = await (await fetch(`${app.url}/sign-in`)).text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
    expect(scripts.length).toBeGreaterThan(1);
    // The nonce of that answer's own header is on every script tag it renders.
    for (const tag of scripts) expect(tag).toMatch(/ nonce="[A-Za-z0-9+/=]{24}"/);
  });

  test("an anonymous visitor's public page is not marked private; reset-password and two-factor always are", async () => {
    for (const path of ["/", "/sign-in", "/sign-up", "/forgot-password"]) {
      const response = await get(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("cache-control"), path).toBeNull();
    }
    for (const path of ["/reset-password?token=abc", "/reset-password", "/two-factor?methods=totp"]) {
      const response = await get(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("cache-control"), path).toBe("private, no-store");
      expect(response.headers.get("x-content-type-options"), path).toBe("nosniff");
    }
    const data = await get("/reset-password.data?token=abc");
    expect(data.headers.get("cache-control")).toBe("private, no-store");
  });

  test("every answer to a signed-in request — documents and route data — is private, no-store", async () => {
    const cookie = await sessionCookieOf(DEMO.admin.email, DEMO.admin.password);
    const pages = [
      "/",
      "/account",
      "/account/sessions",
      "/organizations",
      "/admin",
      "/sign-in?redirectTo=%2F",
    ];
    for (const path of pages) {
      const response = await get(path, cookie);
      expect([200, 302], path).toContain(response.status);
      if (response.status === 302) continue;
      expect(response.headers.get("cache-control"), path).toBe("private, no-store");
      expect(response.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(response.headers.get("content-security-policy"), path).toMatch(/script-src 'self' 'nonce-/);
    }
    for (const path of [
      "/_root.data",
      "/account.data",
      "/account/sessions.data",
      "/organizations.data",
      "/admin.data",
    ]) {
      const response = await get(path, cookie);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("cache-control"), path).toBe("private, no-store");
      expect(response.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(response.headers.get("content-security-policy"), path).toMatch(/^default-src 'self'/);
    }
    // The same route data without the cookie is public (and says nobody is signed in).
    const anonymous = await get("/_root.data");
    expect(anonymous.headers.get("cache-control")).toBeNull();
    expect(anonymous.headers.get("x-content-type-options")).toBe("nosniff");
  });

  test("resource routes, loader redirects and assets carry nosniff once; signed-in ones are private, no-store", async () => {
    const cookie = await sessionCookieOf(DEMO.grace, DEMO.password);
    const signedIn = [
      // The live slug check (a resource route answering JSON), the core's own answers, a loader's
      // redirect of a signed-in visitor, and the redirect of /favicon.ico.
      ["/organizations/check-slug?slug=acme", 200],
      ["/api/auth/get-session", 200],
      ["/sign-in", 302],
      ["/favicon.ico", 301],
    ] as const;
    for (const [path, status] of signedIn) {
      const response = await get(path, cookie);
      expect(response.status, path).toBe(status);
      expect(response.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(response.headers.get("cache-control"), path).toBe("private, no-store");
    }
    expect(
      await (await fetch(`${app.url}/organizations/check-slug?slug=acme`, { headers: { cookie } })).json(),
    ).toEqual({
      slug: "acme",
      available: false,
      code: "ORGANIZATION_SLUG_TAKEN",
    });
    // Anonymous: a loader's redirect to sign in, the favicon's redirect and the core's answer are
    // nosniff without being marked private.
    for (const [path, status] of [
      ["/account", 302],
      ["/organizations/check-slug?slug=acme", 302],
      ["/favicon.ico", 301],
      ["/api/auth/get-session", 200],
    ] as const) {
      const response = await get(path);
      expect(response.status, path).toBe(status);
      expect(response.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(response.headers.get("cache-control"), path).not.toBe("private, no-store");
    }
    // Assets: nosniff, and still cacheable for a signed-in visitor.
    const icon = await get("/favicon.svg", cookie);
    expect(icon.status).toBe(200);
    expect(icon.headers.get("x-content-type-options")).toBe("nosniff");
    expect(icon.headers.get("cache-control")).toBe("public, max-age=3600");
  });

  test("in Chromium, no page reports a CSP violation, and every page hydrates", async () => {
    const page = await app.newPage();
    const watch = await watchPage(page);
    const visit = async (path: string) => {
      await page.goto(path);
      await expectHydrated(page);
    };
    for (const path of ["/", "/sign-up", "/forgot-password", "/reset-password?token=abc", "/verify-email"])
      await visit(path);
    await signIn(page, DEMO.admin.email, DEMO.admin.password);
    await expectHydrated(page);
    for (const path of [
      "/account",
      "/account/email",
      "/account/password",
      "/account/sessions",
      "/account/two-factor",
      "/account/api-keys",
      "/account/linked",
      "/organizations",
      "/admin",
      "/admin/users",
      "/admin/audit",
    ])
      await visit(path);
    // A client-side navigation (route data under the same CSP), then a form that posts with fetch.
    await page.getByRole("link", { name: "Account" }).first().click();
    await page.waitForURL((url) => url.pathname === "/account");
    await screenshot(page, "headers-account-under-csp");
    expect(watch.violations).toEqual([]);
    expect(watch.messages.filter((text) => /Content Security Policy|nonce/i.test(text))).toEqual([]);
  });
});
