import { randomBytes } from "node:crypto";
import { readCookie } from "./cookies.server";

/**
 * The headers every page and route-data answer of the app carries (docs/security.md, response
 * headers): a strict Content-Security-Policy keyed to a per-request nonce, `nosniff`, and
 * `private, no-store` wherever the answer is personal, so no shared cache, back/forward cache or
 * history copy keeps it after sign-out. app/entry.server.tsx applies them to documents and to
 * `.data` requests; server.js (answer-headers.js) adds nosniff and private, no-store to the answers
 * Remix gives without calling the entry (resource routes, loader redirects).
 */

/** 128 random bits, fresh for every document (CSP3 §6.7.2.3: a nonce must be unguessable and unique). */
export function createNonce(): string {
  return randomBytes(16).toString("base64");
}

/** Pages whose answer is personal even before a session exists (a reset token, a challenge, a mailed link's address). */
const ALWAYS_PRIVATE = /^\/(?:reset-password|two-factor|account|sign-in\/(?:confirm|code))(?:[/.]|$)/;

export interface HeaderOptions {
  /** The nonce of the page's inline scripts; absent for route data, which runs no script. */
  nonce?: string;
  /** The session cookie's name (its `__Secure-` prefix depends on the base URL). */
  sessionCookie: string;
  /** Vite's development server: its HMR websocket and injected <style> tags. */
  isDevelopment: boolean;
}

export function applySecurityHeaders(request: Request, headers: Headers, options: HeaderOptions): void {
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Content-Security-Policy", contentSecurityPolicy(request, options));
  if (isPersonal(request, headers, options.sessionCookie)) headers.set("Cache-Control", "private, no-store");
}

/**
 * Personal: the request carries a session cookie, the answer sets one (sign-in, sign-out), or the
 * page is one of ALWAYS_PRIVATE. An expired cookie still counts: the answer is then not cached either.
 */
function isPersonal(request: Request, headers: Headers, sessionCookie: string): boolean {
  const path = new URL(request.url).pathname;
  if (ALWAYS_PRIVATE.test(path)) return true;
  if (headers.has("set-cookie")) return true;
  return readCookie(request, sessionCookie) !== null;
}

/**
 * Scripts only from the app and with this request's nonce (Remix's inline hydration data and scroll
 * restoration); no plugins, no framing, no <base> hijack. Images may come from any https (and, on an
 * http app, http) address: avatars and logos are user URLs the core allows. `form-action` is left
 * out: a social sign-in form posts to /social, which redirects to the provider's page, and browsers
 * apply form-action to that redirect.
 */
function contentSecurityPolicy(request: Request, { nonce, isDevelopment }: HeaderOptions): string {
  const url = new URL(request.url);
  const http = url.protocol === "http:";
  const script = nonce ? `'self' 'nonce-${nonce}'` : "'self'";
  const directives = [
    "default-src 'self'",
    `script-src ${script}`,
    // Vite injects CSS as <style> tags in development; the built app links its stylesheet.
    `style-src 'self'${isDevelopment ? " 'unsafe-inline'" : ""}`,
    `img-src 'self' data: https:${http ? " http:" : ""}`,
    // Vite's HMR websocket (vite.config.ts, server.hmr.port) in development only.
    `connect-src 'self'${isDevelopment ? ` ws://${url.hostname}:24679` : ""}`,
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
  ];
  return directives.join("; ");
}
