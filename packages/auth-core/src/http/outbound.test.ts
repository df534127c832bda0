import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOutboundFetch, isPublicAddress, OutboundError, type ResolveHost } from "./outbound.ts";

describe("isPublicAddress", () => {
  it.each([
    ["127.0.0.1", false],
    ["127.255.255.254", false],
    ["0.0.0.0", false],
    ["10.1.2.3", false],
    ["172.16.0.1", false],
    ["172.31.255.255", false],
    ["192.168.1.1", false],
    ["169.254.169.254", false],
    ["100.64.0.1", false],
    ["100.127.255.255", false],
    ["224.0.0.1", false],
    ["239.255.255.250", false],
    ["255.255.255.255", false],
    ["198.18.0.1", false],
    ["::", false],
    ["::1", false],
    ["fe80::1", false],
    ["fc00::1", false],
    ["fd12:3456::1", false],
    ["ff02::1", false],
    ["::ffff:127.0.0.1", false],
    ["::ffff:7f00:1", false],
    ["::ffff:169.254.169.254", false],
    ["::ffff:a9fe:a9fe", false],
    ["64:ff9b::7f00:1", false],
    ["2002:7f00:1::", false],
    ["2002:c0a8:101::1", false],
    ["not-an-address", false],
    ["8.8.8.8", true],
    ["93.184.216.34", true],
    ["172.32.0.1", true],
    ["100.128.0.1", true],
    ["2606:4700:4700::1111", true],
    ["::ffff:8.8.8.8", true],
    ["64:ff9b::808:808", true],
  ])("%s is public: %s", (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});

let server: Server;
let port: number;
const seenHosts: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    seenHosts.push(request.headers.host ?? "");
    if (request.url === "/redirect") {
      response.writeHead(302, { location: "http://127.0.0.1/elsewhere" }).end();
    } else if (request.url === "/large") {
      response.writeHead(200, { "content-type": "text/plain" }).end("x".repeat(5000));
    } else if (request.url === "/slow") {
      setTimeout(() => response.end("late"), 2000);
    } else {
      response.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const toLoopback: ResolveHost = async () => [{ address: "127.0.0.1", family: 4 }];

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof OutboundError) return `${error.reason}: ${error.message}`;
    throw error;
  }
  return "fetched";
}

describe("createOutboundFetch", () => {
  it("by default refuses a server on 127.0.0.1, by literal address or by a name resolving to it", async () => {
    const guarded = createOutboundFetch({ allowPrivateAddresses: false, resolveHost: toLoopback });
    seenHosts.length = 0;
    expect(await refusal(guarded(`https://127.0.0.1:${port}/`))).toBe(
      `private_address: 127.0.0.1:${port} resolves to a private or reserved address`,
    );
    expect(await refusal(guarded(`https://[::ffff:127.0.0.1]:${port}/`))).toBe(
      `private_address: [::ffff:7f00:1]:${port} resolves to a private or reserved address`,
    );
    expect(await refusal(guarded(`https://idp.example:${port}/`))).toBe(
      `private_address: idp.example:${port} resolves to a private or reserved address`,
    );
    expect(seenHosts).toEqual([]);
  });

  it("refuses plain http unless private targets are allowed", async () => {
    const guarded = createOutboundFetch({ allowPrivateAddresses: false, resolveHost: toLoopback });
    expect(await refusal(guarded(`http://idp.example:${port}/`))).toBe(
      `not_https: only https URLs are fetched (http://idp.example:${port})`,
    );
  });

  it("refuses a name with one private address among public ones", async () => {
    const guarded = createOutboundFetch({
      allowPrivateAddresses: false,
      resolveHost: async () => [
        { address: "93.184.216.34", family: 4 },
        { address: "10.0.0.5", family: 4 },
      ],
    });
    expect(await refusal(guarded("https://mixed.example/"))).toBe(
      "private_address: mixed.example resolves to a private or reserved address",
    );
  });

  it("connects to the address it checked, never resolving the name again", async () => {
    let lookups = 0;
    const guarded = createOutboundFetch({
      allowPrivateAddresses: true,
      resolveHost: async () => {
        lookups += 1;
        return [{ address: "127.0.0.1", family: 4 }];
      },
    });
    seenHosts.length = 0;
    const response = await guarded(`http://rebind.example:${port}/doc`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(seenHosts).toEqual([`rebind.example:${port}`]);
    expect(lookups).toBe(1);
  });

  it("does not follow a redirect, caps the body and keeps a deadline", async () => {
    const guarded = createOutboundFetch({
      allowPrivateAddresses: true,
      resolveHost: toLoopback,
      maxBodyBytes: 1000,
      timeoutMs: 300,
    });
    expect(await refusal(guarded(`http://127.0.0.1:${port}/redirect`))).toBe(
      `redirect: 127.0.0.1:${port}/redirect answered a redirect, which is not followed`,
    );
    expect(await refusal(guarded(`http://127.0.0.1:${port}/large`))).toBe(
      `too_large: the answer of 127.0.0.1:${port}/large is larger than 1000 bytes`,
    );
    expect(await refusal(guarded(`http://127.0.0.1:${port}/slow`))).toBe(
      `timeout: 127.0.0.1:${port}/slow did not answer in time`,
    );
  });

  it("refuses what is not a URL and a name that does not resolve", async () => {
    const guarded = createOutboundFetch({
      allowPrivateAddresses: false,
      resolveHost: async () => {
        throw new Error("ENOTFOUND");
      },
    });
    expect(await refusal(guarded("not a url"))).toBe("invalid_url: not a URL");
    expect(await refusal(guarded("https://nowhere.example/"))).toBe(
      "unresolvable: nowhere.example does not resolve",
    );
  });
});
