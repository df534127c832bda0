// Headers every answer of the demo carries, whichever part of the app wrote it (docs/security.md,
// "Response headers"). app/entry.server.tsx sets them, with the nonce CSP, on documents
// and route data; Remix answers resource routes (the live slug check, /favicon.ico, /api/auth, the
// data download) and loader redirects without calling it, so server.js adds these two to every
// answer here, just before its headers leave.

/**
 * Runs `fill` once, just before the answer's status line and headers are written: Node's implicit
 * header (res.write/res.end) goes through writeHead too, so no answer skips it.
 * @param {import("express").Response} res
 * @param {() => void} fill
 */
function beforeHeaders(res, fill) {
  const writeHead = res.writeHead;
  let filled = false;
  res.writeHead = function writeHeadWithFill(...args) {
    if (!filled) {
      filled = true;
      fill();
    }
    return writeHead.apply(this, args);
  };
}

/**
 * `X-Content-Type-Options: nosniff` on every answer, assets included, set only where the answer has
 * none (Remix appends the headers it was given: setting it first would send it twice).
 * @type {import("express").RequestHandler}
 */
export function setNoSniff(_req, res, next) {
  beforeHeaders(res, () => {
    if (!res.hasHeader("x-content-type-options")) res.setHeader("X-Content-Type-Options", "nosniff");
  });
  next();
}

/**
 * `private, no-store` on every answer to a request that carries the session cookie (an expired one
 * too), whatever the route set: a personal answer is kept by no shared cache, back/forward cache or
 * history copy after sign-out. Mounted after the static files, whose assets stay cacheable.
 * @param {() => string} sessionCookieName the core's session cookie (its `__Secure-` prefix follows the base URL)
 * @returns {import("express").RequestHandler}
 */
export function keepSignedInAnswersPrivate(sessionCookieName) {
  return (req, res, next) => {
    const name = sessionCookieName();
    const cookies = (req.get("cookie") ?? "").split(";");
    if (cookies.some((part) => part.trim().startsWith(`${name}=`)))
      beforeHeaders(res, () => res.setHeader("Cache-Control", "private, no-store"));
    next();
  };
}
