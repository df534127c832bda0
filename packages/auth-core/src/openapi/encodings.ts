import { brotliCompressSync, constants, gzipSync } from "node:zlib";

/** A content coding this server writes (RFC 9110 §8.4.1). */
export type ContentCoding = "br" | "gzip";

/**
 * The coding to answer with, from the request's Accept-Encoding (RFC 9110 §12.5.3): Brotli, then
 * gzip, each unless refused with `q=0` (`*` stands for any coding not named); null: send it as is.
 */
export function negotiateContentCoding(acceptEncoding: string | null): ContentCoding | null {
  if (!acceptEncoding) return null;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((param) => param.trim()).find((param) => param.startsWith("q="));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name.trim(), Number.isNaN(weight) ? 0 : weight);
  }
  const accepts = (coding: ContentCoding) => (weights.get(coding) ?? weights.get("*") ?? 0) > 0;
  if (accepts("br")) return "br";
  if (accepts("gzip")) return "gzip";
  return null;
}

/**
 * A text body and its compressed forms, each made once on first use: the API document is the same
 * for the life of an instance, and Brotli's best levels take a while on 300 KB.
 */
export function createEncodedBody(text: string): (coding: ContentCoding | null) => string | Uint8Array {
  const encoded = new Map<ContentCoding, Uint8Array>();
  return (coding) => {
    if (coding === null) return text;
    let body = encoded.get(coding);
    if (!body) {
      body =
        coding === "br"
          ? brotliCompressSync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } })
          : gzipSync(text, { level: 9 });
      encoded.set(coding, body);
    }
    return body;
  };
}
