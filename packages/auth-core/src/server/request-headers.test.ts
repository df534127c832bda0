import { describe, expect, it } from "vitest";
import { RequestHeaders } from "./request-headers.ts";

/** rawHeaders as node:http gives them: names as sent, repeats as separate pairs. */
const RAW = [
  "Host",
  "127.0.0.1:3000",
  "Cookie",
  "a=1",
  "X-Forwarded-For",
  "203.0.113.9",
  "cookie",
  "b=2",
  "x-forwarded-for",
  " 198.51.100.7\t",
  "Content-Type",
  "application/json",
];

/** The reference: Fetch Headers filled pair by pair, as the Fetch bridge does. */
function fetchHeaders(raw: string[]): Headers {
  const headers = new Headers();
  for (let index = 0; index < raw.length; index += 2) headers.append(raw[index]!, raw[index + 1]!);
  return headers;
}

describe("RequestHeaders", () => {
  it("answers get and has exactly as Fetch Headers do, before any fill", () => {
    const lazy = new RequestHeaders(RAW);
    const reference = fetchHeaders(RAW);
    for (const name of ["cookie", "COOKIE", "x-forwarded-for", "host", "content-type", "origin"]) {
      expect(lazy.get(name)).toBe(reference.get(name));
      expect(lazy.has(name)).toBe(reference.has(name));
    }
    expect(lazy.get("cookie")).toBe("a=1; b=2");
    expect(lazy.get("x-forwarded-for")).toBe("203.0.113.9, 198.51.100.7");
  });

  it("refuses an invalid header name like Fetch Headers", () => {
    expect(() => new RequestHeaders(RAW).get("bad name")).toThrow(TypeError);
    expect(() => fetchHeaders(RAW).get("bad name")).toThrow(TypeError);
  });

  it("is a Headers: iteration, copies and Requests see every header", () => {
    const lazy = new RequestHeaders(RAW);
    expect(lazy).toBeInstanceOf(Headers);
    expect([...lazy]).toEqual([...fetchHeaders(RAW)]);
    expect([...new Headers(new RequestHeaders(RAW))]).toEqual([...fetchHeaders(RAW)]);
    const request = new Request("http://localhost/x", { headers: new RequestHeaders(RAW) });
    expect(request.headers.get("content-type")).toBe("application/json");
  });

  it("keeps changes made after lookups", () => {
    const lazy = new RequestHeaders(RAW);
    expect(lazy.get("host")).toBe("127.0.0.1:3000");
    lazy.set("host", "example.test");
    lazy.delete("cookie");
    lazy.append("x-extra", "1");
    expect(lazy.get("host")).toBe("example.test");
    expect(lazy.has("cookie")).toBe(false);
    expect(lazy.get("x-extra")).toBe("1");
    expect(lazy.get("content-type")).toBe("application/json");
  });
});
