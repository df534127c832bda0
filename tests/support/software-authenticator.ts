/**
 * A WebAuthn authenticator in software, for server tests and the bench: it answers registration and
 * sign-in options as a browser with a platform authenticator would (RegistrationResponseJSON,
 * AuthenticationResponseJSON), with ES256 (P-256) or RS256 keys from node:crypto, `fmt: "none"` or
 * `packed` self-attestation, and the flags and signature counter a test sets. CBOR through
 * @levischuck/tiny-cbor (WebAuthn §6.1 authenticator data, §6.5 attestation object, §8.2 packed).
 */
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto";
import { type CBORType, encodeCBOR } from "@levischuck/tiny-cbor";

export type KeyType = "ES256" | "RS256";
export type AttestationFormat = "none" | "packed";

/** Authenticator data flags (WebAuthn §6.1): user present, user verified, backup eligible, backed up. */
export interface AuthenticatorFlags {
  up: boolean;
  uv: boolean;
  be: boolean;
  bs: boolean;
}

/** What a ceremony's options give the authenticator (the JSON the server's options endpoints answer). */
interface CreationOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}
interface RequestOptions {
  challenge: string;
  rpId?: string;
}

/** What a test may change in one answer: a browser at another origin, another RP id, another handle… */
export interface CeremonyOverrides {
  origin?: string;
  rpID?: string;
  challenge?: string;
  flags?: Partial<AuthenticatorFlags>;
  /** Sign-in only: the user handle sent (null: none). */
  userHandle?: string | null;
  type?: string;
}

const COSE_ALG = { ES256: -7, RS256: -257 } as const;
const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();

export class SoftwareAuthenticator {
  readonly keyType: KeyType;
  readonly format: AttestationFormat;
  /** The credential id (random, 32 bytes), base64url as the browser sends it. */
  readonly credentialID: string;
  /** The signature counter; each signature raises it first when `keepsCounter`. */
  counter: number;
  keepsCounter: boolean;
  flags: AuthenticatorFlags;
  /** The user handle the server gave at registration (null before). */
  userHandle: string | null = null;
  readonly aaguid: Buffer;
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;

  constructor(
    options: {
      keyType?: KeyType;
      format?: AttestationFormat;
      flags?: Partial<AuthenticatorFlags>;
      counter?: number;
      keepsCounter?: boolean;
      /** 16 bytes as hex (dashes allowed); zeros by default, as privacy-preserving authenticators send. */
      aaguid?: string;
      /** The browser's origin. @default "http://localhost:3000" */
      origin?: string;
    } = {},
  ) {
    this.keyType = options.keyType ?? "ES256";
    this.format = options.format ?? "none";
    this.flags = { up: true, uv: true, be: false, bs: false, ...options.flags };
    this.counter = options.counter ?? 0;
    this.keepsCounter = options.keepsCounter ?? true;
    this.aaguid = Buffer.from((options.aaguid ?? "00".repeat(16)).replaceAll("-", ""), "hex");
    this.origin = options.origin ?? "http://localhost:3000";
    this.credentialID = b64url(randomBytes(32));
    const pair =
      this.keyType === "ES256"
        ? generateKeyPairSync("ec", { namedCurve: "P-256" })
        : generateKeyPairSync("rsa", { modulusLength: 2048 });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  readonly origin: string;

  /** navigator.credentials.create: the RegistrationResponseJSON for `options`. */
  createCredential(options: CreationOptions, overrides: CeremonyOverrides = {}) {
    this.userHandle = options.user.id;
    const clientDataJSON = this.clientData("webauthn.create", options.challenge, overrides);
    const authData = this.authenticatorData(overrides.rpID ?? options.rp.id ?? "localhost", overrides, true);
    const attStmt = new Map<string, CBORType>();
    if (this.format === "packed") {
      attStmt.set("alg", COSE_ALG[this.keyType]);
      attStmt.set("sig", this.signature(authData, clientDataJSON));
    }
    const attestationObject = encodeCBOR(
      new Map<string, CBORType>([
        ["fmt", this.format],
        ["attStmt", attStmt],
        ["authData", authData],
      ]),
    );
    return this.credentialJSON({
      clientDataJSON: b64url(clientDataJSON),
      attestationObject: b64url(attestationObject),
      transports: ["internal", "hybrid"],
    });
  }

  /** navigator.credentials.get: the AuthenticationResponseJSON for `options`. */
  getAssertion(options: RequestOptions, overrides: CeremonyOverrides = {}) {
    const clientDataJSON = this.clientData("webauthn.get", options.challenge, overrides);
    const authData = this.authenticatorData(overrides.rpID ?? options.rpId ?? "localhost", overrides, false);
    const userHandle = overrides.userHandle === undefined ? this.userHandle : overrides.userHandle;
    return this.credentialJSON({
      clientDataJSON: b64url(clientDataJSON),
      authenticatorData: b64url(authData),
      signature: b64url(this.signature(authData, clientDataJSON)),
      ...(userHandle === null ? {} : { userHandle }),
    });
  }

  /** A PublicKeyCredential as its JSON, around a ceremony's `response`. */
  private credentialJSON<R>(response: R) {
    return {
      id: this.credentialID,
      rawId: this.credentialID,
      type: "public-key" as const,
      response,
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
    };
  }

  private clientData(type: string, challenge: string, overrides: CeremonyOverrides): Buffer {
    return Buffer.from(
      JSON.stringify({
        type: overrides.type ?? type,
        challenge: overrides.challenge ?? challenge,
        origin: overrides.origin ?? this.origin,
        crossOrigin: false,
      }),
    );
  }

  /** rpIdHash ‖ flags ‖ signCount (‖ attested credential data at registration), WebAuthn §6.1. */
  private authenticatorData(rpID: string, overrides: CeremonyOverrides, attested: boolean): Buffer {
    const flags = { ...this.flags, ...overrides.flags };
    if (this.keepsCounter) this.counter += 1;
    const bits =
      (flags.up ? 0x01 : 0) |
      (flags.uv ? 0x04 : 0) |
      (flags.be ? 0x08 : 0) |
      (flags.bs ? 0x10 : 0) |
      (attested ? 0x40 : 0);
    const count = Buffer.alloc(4);
    count.writeUInt32BE(this.counter);
    const parts: Uint8Array[] = [sha256(rpID), Buffer.from([bits]), count];
    if (attested) {
      const id = Buffer.from(this.credentialID, "base64url");
      const length = Buffer.alloc(2);
      length.writeUInt16BE(id.length);
      parts.push(this.aaguid, length, id, Buffer.from(encodeCBOR(this.coseKey())));
    }
    return Buffer.concat(parts);
  }

  /** The credential public key as a COSE_Key (RFC 9053 §7.1 EC2, RFC 8230 §4 RSA). */
  private coseKey(): Map<number, CBORType> {
    const jwk = this.publicKey.export({ format: "jwk" });
    const bytes = (value: string | undefined) => new Uint8Array(Buffer.from(value ?? "", "base64url"));
    if (this.keyType === "ES256")
      return new Map<number, CBORType>([
        [1, 2],
        [3, COSE_ALG.ES256],
        [-1, 1],
        [-2, bytes(jwk.x)],
        [-3, bytes(jwk.y)],
      ]);
    return new Map<number, CBORType>([
      [1, 3],
      [3, COSE_ALG.RS256],
      [-1, bytes(jwk.n)],
      [-2, bytes(jwk.e)],
    ]);
  }

  /** Over authenticatorData ‖ SHA-256(clientDataJSON): ECDSA (DER) or RSASSA-PKCS1-v1_5, SHA-256. */
  private signature(authData: Buffer, clientDataJSON: Buffer): Uint8Array {
    return new Uint8Array(sign("sha256", Buffer.concat([authData, sha256(clientDataJSON)]), this.privateKey));
  }
}
