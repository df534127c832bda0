import { createHmac, timingSafeEqual } from "node:crypto";
import { ObjectId } from "mongodb";
import type { SessionDoc, UserDoc } from "../../db/documents.ts";

/**
 * The signed cookie cache (SPEC §4/§5, DECISIONS.md): the session and user, serialised, with an
 * expiry and an HMAC. Refused when forged, when expired, when its session has expired or when it
 * belongs to another token than the session cookie. Not set when it would exceed 4093 characters.
 *
 * The 4093 are counted over `name=value`, not the value alone: browsers drop a cookie whose name
 * plus value pass 4096 bytes (RFC 6265 §6.1 minimum), and a dropped Set-Cookie would leave the
 * previous cache in place.
 */
export const COOKIE_CACHE_MAX_LENGTH = 4093;

interface CachePayload {
  s: SerializedSession;
  u: SerializedUser;
  exp: number;
}
type SerializedSession = Omit<SessionDoc, "_id" | "userId" | "expiresAt" | "createdAt" | "updatedAt"> & {
  _id: string;
  userId: string;
  expiresAt: number;
  createdAt: number;
  updatedAt: number;
};
type SerializedUser = Omit<UserDoc, "_id" | "createdAt" | "updatedAt"> & {
  _id: string;
  createdAt: number;
  updatedAt: number;
};

function mac(body: string, secret: string): string {
  return createHmac("sha256", secret).update(`cookie-cache:${body}`).digest("base64url");
}

/** Returns null when `cookieName=value` would exceed COOKIE_CACHE_MAX_LENGTH characters. */
export function encodeCookieCache(
  session: SessionDoc,
  user: UserDoc,
  expiresAt: Date,
  secret: string,
  cookieName: string,
): string | null {
  const payload: CachePayload = {
    s: {
      ...session,
      _id: session._id.toHexString(),
      userId: session.userId.toHexString(),
      expiresAt: session.expiresAt.getTime(),
      createdAt: session.createdAt.getTime(),
      updatedAt: session.updatedAt.getTime(),
    },
    u: {
      ...user,
      _id: user._id.toHexString(),
      createdAt: user.createdAt.getTime(),
      updatedAt: user.updatedAt.getTime(),
    },
    exp: expiresAt.getTime(),
  };
  const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
  const value = `${body}.${mac(body, secret)}`;
  const length = cookieName.length + 1 + encodeURIComponent(value).length;
  return length > COOKIE_CACHE_MAX_LENGTH ? null : value;
}

export function decodeCookieCache(
  value: string,
  secret: string,
  token: string,
  now: Date,
): { session: SessionDoc; user: UserDoc } | null {
  const dot = value.lastIndexOf(".");
  if (dot <= 0 || value.length > COOKIE_CACHE_MAX_LENGTH) return null;
  const body = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1));
  const expected = Buffer.from(mac(body, secret));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let payload: CachePayload;
  try {
    payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as CachePayload;
  } catch {
    return null;
  }
  const time = now.getTime();
  if (payload.exp <= time || payload.s.expiresAt <= time || payload.s.token !== token) return null;
  return {
    session: {
      ...payload.s,
      _id: ObjectId.createFromHexString(payload.s._id),
      userId: ObjectId.createFromHexString(payload.s.userId),
      expiresAt: new Date(payload.s.expiresAt),
      createdAt: new Date(payload.s.createdAt),
      updatedAt: new Date(payload.s.updatedAt),
    },
    user: {
      ...payload.u,
      _id: ObjectId.createFromHexString(payload.u._id),
      createdAt: new Date(payload.u.createdAt),
      updatedAt: new Date(payload.u.updatedAt),
    },
  };
}
