import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";
import QRCode from "qrcode";
import { appCookieAttributes, readCookie } from "./cookies.server";
import { readAppEnv } from "./env.server";

/**
 * A two-factor set-up the user has started but not yet confirmed, kept by the app between requests:
 * the core keeps the pending secret until a code confirms it (or the next set-up replaces it), but
 * shows it only once. Without this copy a wrong code, a reload or a new tab lost the QR code and the
 * backup codes while the authenticator app already held the secret. The copy is an encrypted,
 * HttpOnly cookie (AES-256-GCM, key derived from the app secret): the secret and codes never sit
 * in a URL, the browser cannot read them back, and the cookie is bound to the user and session
 * (docs/security.md, "Enabling two-factor").
 */
export interface PendingEnrollment {
  totpURI: string;
  backupCodes: string[];
}

export interface ShownEnrollment {
  qrSrc: string;
  secret: string;
  backupCodes: string[];
}

const COOKIE = "tessera-demo.two-factor-setup";
// Path /account: the page's route data (/account/two-factor.data) must carry it too.
const COOKIE_PATH = "/account";
/** The set-up is kept for an hour; after that "Set up two-factor" starts a new one. */
const MAX_AGE_SECONDS = 3600;

interface Sealed extends PendingEnrollment {
  userId: string;
  sessionId: string;
  expiresAt: number;
}

function cookieKey(): Buffer {
  return createHmac("sha256", readAppEnv(process.env).secret).update("remix-demo two-factor set-up").digest();
}

/** The Set-Cookie value that keeps `enrollment` for this user and session. */
export function keepEnrollment(
  enrollment: PendingEnrollment,
  owner: { userId: string; sessionId: string },
  now = Date.now(),
): string {
  const sealed: Sealed = { ...enrollment, ...owner, expiresAt: now + MAX_AGE_SECONDS * 1000 };
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", cookieKey(), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(sealed), "utf8"), cipher.final()]);
  const value = Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
  return `${COOKIE}=${value}; ${appCookieAttributes(COOKIE_PATH, MAX_AGE_SECONDS)}`;
}

/** The Set-Cookie value that forgets the kept set-up (confirmed, cancelled or already on). */
export function forgetEnrollment(): string {
  return `${COOKIE}=; ${appCookieAttributes(COOKIE_PATH, 0)}`;
}

export function hasKeptEnrollment(request: Request): boolean {
  return Boolean(readCookie(request, COOKIE));
}

/** The kept set-up of this user and session; null when none, expired, tampered with or someone else's. */
export function readEnrollment(
  request: Request,
  owner: { userId: string; sessionId: string },
  now = Date.now(),
): PendingEnrollment | null {
  const value = readCookie(request, COOKIE);
  if (!value) return null;
  try {
    const raw = Buffer.from(value, "base64url");
    const decipher = createDecipheriv("aes-256-gcm", cookieKey(), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
    const sealed = JSON.parse(text) as Sealed;
    if (sealed.userId !== owner.userId || sealed.sessionId !== owner.sessionId) return null;
    if (sealed.expiresAt <= now) return null;
    return { totpURI: sealed.totpURI, backupCodes: sealed.backupCodes };
  } catch {
    return null;
  }
}

/** What the page shows: the QR code drawn here, on the server (the secret goes to no third party). */
export async function showEnrollment(enrollment: PendingEnrollment): Promise<ShownEnrollment> {
  const svg = await QRCode.toString(enrollment.totpURI, {
    type: "svg",
    margin: 1,
    errorCorrectionLevel: "M",
  });
  return {
    qrSrc: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`,
    secret: new URL(enrollment.totpURI).searchParams.get("secret") ?? "",
    backupCodes: enrollment.backupCodes,
  };
}
