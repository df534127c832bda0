/**
 * Helpers shared by the session tests: reading Set-Cookie lines and the session rows behind a
 * browser. Test-only (imported by *.test.ts files of this folder).
 */
import type { Db } from "mongodb";
import { SESSION_COOKIE, type TestBrowser } from "./browser.ts";

export const DONT_REMEMBER_COOKIE = "tessera.dont_remember";
export const DAY = 86400;

/** The Set-Cookie line that sets `name` in this response, or undefined when it is not touched. */
export function setCookieLine(headers: Headers, name: string): string | undefined {
  return headers.getSetCookie().find((line) => line.startsWith(`${name}=`));
}

/** The value of a Set-Cookie line (still URI-encoded, as sent). */
export function setCookieValue(line: string): string {
  return line.slice(line.indexOf("=") + 1, line.indexOf(";"));
}

export function maxAgeOf(line: string): number | undefined {
  const match = /;\s*Max-Age=(\d+)/i.exec(line);
  return match ? Number(match[1]) : undefined;
}

/** True when the line deletes the cookie (empty value, Max-Age=0). */
export function isClearing(line: string | undefined): boolean {
  return line !== undefined && setCookieValue(line) === "" && maxAgeOf(line) === 0;
}

/** The raw session token held by the browser (its signed cookie, minus the signature). */
export function tokenOf(browser: TestBrowser): string {
  const signed = decodeURIComponent(browser.cookies.get(SESSION_COOKIE) ?? "");
  return signed.slice(0, signed.lastIndexOf("."));
}

export function findSessionRow(db: Db, token: string) {
  return db.collection("sessions").findOne({ token });
}

/** Replaces the character at `index` with a different one of the same alphabet. */
export function flipChar(value: string, index: number): string {
  const current = value[index];
  const replacement = current === "A" ? "B" : "A";
  return value.slice(0, index) + replacement + value.slice(index + 1);
}
