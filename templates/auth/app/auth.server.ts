/**
 * The app's one Tessera instance (written by `tessera init`). `auth.handler` answers /api/auth/*
 * (routes/api.auth.$.ts); loaders and actions call `auth.api.*` with the request's headers.
 */
import { type Auth, createAuth } from "@tessera/auth-core";
import { createRemixAuth } from "@tessera/auth-core/remix";
import options from "../tessera.config";

const holder = globalThis as typeof globalThis & { __tessera?: Auth };

export function getAuth(): Auth {
  holder.__tessera ??= createAuth(options);
  return holder.__tessera;
}

/**
 * The core's Remix helpers on this auth: `remix.handler` answers /api/auth/* (routes/api.auth.$.ts),
 * `remix.getSession` / `requireSession` read the signed-in user, `remix.redirectWithCookies` carries
 * an `auth.api` answer's cookies to the browser.
 */
export const remix = createRemixAuth(getAuth);

/** The catalogue message of a refused call, for the form. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : "Something went wrong";
}
