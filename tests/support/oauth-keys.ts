import {
  createHmac,
  generateKeyPairSync,
  type JsonWebKey,
  type KeyObject,
  randomBytes,
  sign,
} from "node:crypto";

/**
 * RS256 signing keys of the test OAuth server, written with node:crypto (not jose) so the tests
 * can also forge what a library would refuse to produce: `alg: none`, HS256 keyed with the public
 * key, a key the JWKS never published, a `jku`/`jwk` header pointing elsewhere.
 */

interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicJwk: JsonWebKey;
}

type ForgedAlgorithm = "RS256" | "none" | "HS256-public-key";

export interface SignOptions {
  /** Which key signs: the published current one, the previous (still published unless dropped), or one never published. @default "current" */
  key?: "current" | "previous" | "unknown";
  alg?: ForgedAlgorithm;
  /** Extra or overriding header fields (kid, jku, jwk, …). */
  header?: Record<string, unknown>;
}

function createSigningKey(): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return { kid: randomBytes(8).toString("hex"), privateKey, publicJwk: publicKey.export({ format: "jwk" }) };
}

function encodeSegment(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

export class KeyRing {
  private current = createSigningKey();
  private previous: SigningKey | null = null;
  private unknown: SigningKey | null = null;

  /** A new current key; the old one stays in the JWKS unless `keepPrevious` is false. */
  rotate(keepPrevious = true): void {
    this.previous = keepPrevious ? this.current : null;
    this.current = createSigningKey();
  }

  jwks(): { keys: JsonWebKey[] } {
    const published = this.previous ? [this.current, this.previous] : [this.current];
    return { keys: published.map((key) => ({ ...key.publicJwk, kid: key.kid, alg: "RS256", use: "sig" })) };
  }

  sign(claims: Record<string, unknown>, options: SignOptions = {}): string {
    const key = this.pick(options.key ?? "current");
    const alg = options.alg ?? "RS256";
    const header = {
      alg: alg === "HS256-public-key" ? "HS256" : alg,
      typ: "JWT",
      ...(alg === "none" ? {} : { kid: key.kid }),
      ...options.header,
    };
    const input = `${encodeSegment(header)}.${encodeSegment(claims)}`;
    if (alg === "none") return `${input}.`;
    if (alg === "HS256-public-key") {
      const secret = JSON.stringify(key.publicJwk);
      return `${input}.${createHmac("sha256", secret).update(input).digest("base64url")}`;
    }
    return `${input}.${sign("RSA-SHA256", Buffer.from(input), key.privateKey).toString("base64url")}`;
  }

  private pick(which: "current" | "previous" | "unknown"): SigningKey {
    if (which === "previous") {
      if (!this.previous) throw new Error("no previous key: call rotate() first");
      return this.previous;
    }
    if (which === "unknown") {
      this.unknown ??= createSigningKey();
      return this.unknown;
    }
    return this.current;
  }
}
