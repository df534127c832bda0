import { describe, expect, it } from "vitest";
import { AuthError } from "../errors/auth-error.ts";
import { readRequestBody } from "./read-body.ts";

const post = (body: BodyInit | null, headers: Record<string, string> = {}) =>
  new Request("http://localhost/x", {
    method: "POST",
    headers,
    body,
    ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
  } as RequestInit);

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AuthError) return error.code;
    throw error;
  }
  return "no error";
}

const JSON_TYPE = { "content-type": "application/json" };

describe("readRequestBody", () => {
  it("parses JSON (also +json and with a charset) and treats an empty body as {}", async () => {
    expect(await readRequestBody(post('{"a":1}', JSON_TYPE), 100, false)).toEqual({ a: 1 });
    expect(
      await readRequestBody(
        post('{"a":1}', { "content-type": "application/merge-patch+json; charset=utf-8" }),
        100,
        false,
      ),
    ).toEqual({ a: 1 });
    expect(await readRequestBody(post(null), 100, false)).toEqual({});
    expect(await readRequestBody(post("  ", { "content-type": "text/plain" }), 100, false)).toEqual({});
  });

  it("refuses a declared length past the cap without waiting for the body", async () => {
    // A stream that never ends: only the Content-Length check can answer.
    const never = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => {}) });
    const request = post(never, { ...JSON_TYPE, "content-length": "101" });
    expect(await codeOf(readRequestBody(request, 100, false))).toBe("BODY_TOO_LARGE");
  });

  it("counts bytes while streaming: an undeclared or understated body past the cap is 413", async () => {
    expect(await codeOf(readRequestBody(post("x".repeat(101), JSON_TYPE), 100, false))).toBe(
      "BODY_TOO_LARGE",
    );
    // Multi-byte characters count as bytes, not characters.
    expect(await codeOf(readRequestBody(post(`"${"é".repeat(50)}"`, JSON_TYPE), 100, false))).toBe(
      "BODY_TOO_LARGE",
    );
    let chunks = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        chunks++;
        controller.enqueue(new Uint8Array(64));
      },
    });
    expect(await codeOf(readRequestBody(post(endless, JSON_TYPE), 1000, false))).toBe("BODY_TOO_LARGE");
    expect(chunks).toBeLessThan(20);
  });

  it("maps malformed JSON to INVALID_JSON and other types to UNSUPPORTED_CONTENT_TYPE", async () => {
    expect(await codeOf(readRequestBody(post("{", JSON_TYPE), 100, false))).toBe("INVALID_JSON");
    expect(
      await codeOf(
        readRequestBody(post("a=1", { "content-type": "application/x-www-form-urlencoded" }), 100, false),
      ),
    ).toBe("UNSUPPORTED_CONTENT_TYPE");
    expect(await codeOf(readRequestBody(post("{}", { "content-type": "text/plain" }), 100, false))).toBe(
      "UNSUPPORTED_CONTENT_TYPE",
    );
    expect(await codeOf(readRequestBody(post("{}"), 100, false))).toBe("UNSUPPORTED_CONTENT_TYPE");
  });

  it("parses a form body only where allowed, as flat strings (no nested operators)", async () => {
    const form = { "content-type": "application/x-www-form-urlencoded" };
    expect(await readRequestBody(post("code=a&state=b&email[$ne]=x", form), 100, true)).toEqual({
      code: "a",
      state: "b",
      "email[$ne]": "x",
    });
  });
});
