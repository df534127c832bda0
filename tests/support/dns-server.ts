import { createSocket } from "node:dgram";
import { Resolver } from "node:dns/promises";
import { createRequire } from "node:module";

/**
 * A small authoritative DNS server on 127.0.0.1 (UDP, RFC 1035 messages through dns-packet) for
 * the domain proofs of features/sso-domains: tests publish TXT records here and point a real
 * node:dns Resolver at it — real DNS over the wire, nothing mocked, nothing leaving the machine.
 * dns-packet is the core's dev dependency (tests/ does not list it), loaded from there.
 */
const requireFromCore = createRequire(new URL("../../packages/auth-core/package.json", import.meta.url));

interface Question {
  type: string;
  name: string;
}
interface Answer {
  type: "TXT";
  name: string;
  ttl: number;
  class: "IN";
  data: string[];
}
interface Packet {
  id?: number;
  type: "query" | "response";
  flags?: number;
  questions?: Question[];
  answers?: Answer[];
}
const packet = requireFromCore("dns-packet") as {
  encode(message: Packet): Buffer;
  decode(message: Buffer): Packet;
  AUTHORITATIVE_ANSWER: number;
};

/** RFC 1035 §4.1.1 RCODE 3: the name does not exist. */
const NXDOMAIN = 3;

export interface TestDnsServer {
  port: number;
  /** Publishes the TXT records of a name (each record its strings); null removes them. */
  setTxt(name: string, records: string[][] | null): void;
  /** How many queries arrived (a test that expects no lookup checks it). */
  queries(): number;
  /** A node:dns/promises Resolver asking only this server. */
  resolver(): Resolver;
  close(): Promise<void>;
}

export async function startDnsServer(): Promise<TestDnsServer> {
  const zone = new Map<string, string[][]>();
  let asked = 0;
  const socket = createSocket("udp4");
  socket.on("message", (message, remote) => {
    asked++;
    const query = packet.decode(message);
    const question = query.questions?.[0];
    const records = question?.type === "TXT" ? zone.get(question.name.toLowerCase()) : undefined;
    const known = question !== undefined && zone.has(question.name.toLowerCase());
    const answer = packet.encode({
      id: query.id ?? 0,
      type: "response",
      flags: packet.AUTHORITATIVE_ANSWER | (known ? 0 : NXDOMAIN),
      questions: query.questions ?? [],
      answers: (records ?? []).map((data) => ({
        type: "TXT",
        name: question!.name,
        ttl: 0,
        class: "IN",
        data,
      })),
    });
    socket.send(answer, remote.port, remote.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  const { port } = socket.address();
  return {
    port,
    setTxt(name, records) {
      if (records === null) zone.delete(name.toLowerCase());
      else zone.set(name.toLowerCase(), records);
    },
    queries: () => asked,
    resolver() {
      const resolver = new Resolver({ timeout: 1000, tries: 1 });
      resolver.setServers([`127.0.0.1:${port}`]);
      return resolver;
    },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
