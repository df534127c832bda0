import { AuthError } from "../errors/auth-error.ts";

/**
 * Reads a request body with a hard byte cap (413 past it, counted while streaming so a lying or
 * absent Content-Length cannot get around it) and parses JSON or, where allowed, form data.
 */
export async function readRequestBody(
  request: Request,
  maxBytes: number,
  acceptsForm: boolean,
): Promise<unknown> {
  assertDeclaredLength(request.headers.get("content-length"), maxBytes);
  const text = await readTextCapped(request, maxBytes);
  return parseRequestBody(text, request.headers.get("content-type"), acceptsForm);
}

/**
 * A Content-Length past the cap is refused before any byte is read (413). The standalone server
 * reads its bodies from node:http (server/node-bridge.ts) with this check and `parseRequestBody`.
 */
export function assertDeclaredLength(contentLength: string | null, maxBytes: number): void {
  if (Number(contentLength ?? "0") > maxBytes) throw new AuthError("BODY_TOO_LARGE");
}

/** A body read whole under the cap: JSON (also `+json`), a form where allowed, `{}` when blank. */
export function parseRequestBody(text: string, contentType: string | null, acceptsForm: boolean): unknown {
  if (text.trim() === "") return {};
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "application/json" || type.endsWith("+json")) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new AuthError("INVALID_JSON");
    }
  }
  if (acceptsForm && type === "application/x-www-form-urlencoded") {
    return Object.fromEntries(new URLSearchParams(text));
  }
  throw new AuthError("UNSUPPORTED_CONTENT_TYPE");
}

async function readTextCapped(request: Request, maxBytes: number): Promise<string> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new AuthError("BODY_TOO_LARGE");
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
