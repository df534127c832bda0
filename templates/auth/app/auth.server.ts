/**
 * The app's one Tessera instance (written by `tessera init`). `auth.handler` answers /api/auth/*
 * (routes/api.auth.$.ts); loaders and actions call `auth.api.*` with the request's headers.
 */
import { type Auth, createAuth } from "@tessera/auth-core";
import options from "../tessera.config";

const holder = globalThis as typeof globalThis & { __tessera?: Auth };

export function getAuth(): Auth {
  holder.__tessera ??= createAuth(options);
  return holder.__tessera;
}

/** The signed-in user's session, or null. */
export async function getSession(request: Request) {
  const { data } = await getAuth().api.getSession({ headers: request.headers });
  return data;
}

/** Headers carrying the Set-Cookie lines of an `auth.api` answer, for a redirect or a response. */
export function withCookies(headers: Headers): Headers {
  const out = new Headers();
  for (const cookie of headers.getSetCookie()) out.append("Set-Cookie", cookie);
  return out;
}

/** The catalogue message of a refused call, for the form. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : "Something went wrong";
}
