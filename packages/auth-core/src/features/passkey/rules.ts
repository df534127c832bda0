import { type Passkey, passkeyModel } from "../../contracts/passkey-models.ts";
import type { PasskeyDoc } from "../../db/documents.ts";
import { toModelValue } from "../../db/model.ts";
import { authenticatorNameOf } from "./authenticator-names.ts";

/**
 * Pure decisions of features/passkey (docs/passkeys.md): who the relying party is, what a ceremony's
 * challenge row holds, and how a stored passkey is answered.
 */

/** A challenge lives 5 minutes (docs/passkeys.md; WebAuthn §5.4.4 recommends 300 s for UV ceremonies). */
export const CHALLENGE_SECONDS = 300;

export interface RelyingParty {
  id: string;
  name: string;
  origins: string[];
  requireUserVerification: boolean;
}

/** The options that decide the relying party (a subset of ResolvedOptions). */
export interface RelyingPartyOptions {
  appName: string;
  baseURL?: string | undefined;
  passkey: {
    rpID?: string | undefined;
    rpName?: string | undefined;
    origin?: string | string[] | undefined;
    userVerification: "required" | "preferred" | "discouraged";
  };
}

/**
 * The RP id and the origins a ceremony must come from: the options, else the baseURL's hostname and
 * origin — never the request's Origin header, which a ceremony checked against itself would pass.
 */
export function relyingPartyOf(options: RelyingPartyOptions): RelyingParty {
  const base = options.baseURL ? new URL(options.baseURL) : new URL("http://localhost:3000");
  const { rpID, rpName, origin, userVerification } = options.passkey;
  return {
    id: rpID ?? base.hostname,
    name: rpName ?? options.appName,
    origins: origin === undefined ? [base.origin] : Array.isArray(origin) ? origin : [origin],
    requireUserVerification: userVerification === "required",
  };
}

/** What a passkey-first sign-up keeps until the authenticator answers (the address is not the browser's to change). */
export interface PendingSignUp {
  email: string;
  name: string;
  callbackURL: string | null;
  language: string | null;
}

/** The server-side half of a ceremony: the challenge, and for whom it was issued. */
export type Ceremony =
  | { kind: "registration"; challenge: string; userId: string; userHandle: string }
  | { kind: "sign-up"; challenge: string; userHandle: string; signUp: PendingSignUp }
  | { kind: "authentication"; challenge: string };

export function serializeCeremony(ceremony: Ceremony): string {
  return JSON.stringify(ceremony);
}

/** Null for anything that is not a ceremony this module wrote. */
export function parseCeremony(value: string): Ceremony | null {
  try {
    const parsed = JSON.parse(value) as Partial<Ceremony> | null;
    if (typeof parsed?.challenge !== "string") return null;
    if (parsed.kind === "authentication") return parsed as Ceremony;
    if (typeof (parsed as { userHandle?: unknown }).userHandle !== "string") return null;
    if (parsed.kind === "registration" && typeof parsed.userId === "string") return parsed as Ceremony;
    if (parsed.kind === "sign-up" && typeof parsed.signUp?.email === "string") return parsed as Ceremony;
    return null;
  } catch {
    return null;
  }
}

/** The WebAuthn user handle of an existing user: their id's 12 bytes, base64url (no personal data, WebAuthn §14.6.1). */
export function userHandleOf(userId: string): string {
  return Buffer.from(userId, "hex").toString("base64url");
}

/** The AAGUID authenticators send when they do not name their model. */
const ANONYMOUS_AAGUID = "00000000-0000-0000-0000-000000000000";

export function storedAaguid(aaguid: string | undefined): string | null {
  return aaguid && aaguid !== ANONYMOUS_AAGUID ? aaguid : null;
}

/** The API value of a stored passkey (contracts/passkey-models.ts passkeyModel). */
export function toPasskey(doc: PasskeyDoc): Passkey {
  return toModelValue(passkeyModel, doc, {
    transports: doc.transports.join(","),
    authenticatorName: authenticatorNameOf(doc.aaguid),
  });
}
