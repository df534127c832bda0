import { type AddressInfo, connect, createServer, type Server, type Socket } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

/**
 * A real SMTP server on 127.0.0.1 behind a front port that the test can take down: while `down`,
 * connections to the port are refused (nothing listens), as with a mail server that is off. Mails
 * are counted by Message-ID, so a mail sent twice shows as twice.
 */
export interface FaultySmtp {
  url: string;
  received: ParsedMail[];
  /** Message-ID → how many times it arrived. */
  countByMessageId(): Map<string, number>;
  /** Mails received for `address`. */
  receivedBy(address: string): ParsedMail[];
  /** Refuses connections from now on (closes the listening port and open connections). */
  goDown(): Promise<void>;
  comeBack(): Promise<void>;
  /** Greets only after `ms` from now on (0: at once): past a client's timeout, its attempt fails. */
  greetAfter(ms: number): void;
  /**
   * Takes in the next mails (kept in `received`) but answers their DATA with 451: the client sees
   * a failure although the message reached the server (from now on; `false` stops it).
   */
  failAfterData(fail: boolean): void;
  /** Answers RCPT TO for `address` with 550 and this text. */
  rejectRecipient(address: string, text: string): void;
  /** How many connections reached the server (attempts, counted by the server). */
  connections(): number;
  close(): Promise<void>;
}

export async function startFaultySmtp(): Promise<FaultySmtp> {
  const received: ParsedMail[] = [];
  const rejected = new Map<string, string>();
  let greetDelay = 0;
  let failData = false;
  let connections = 0;
  const inner = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onConnect(_session, callback) {
      connections++;
      if (greetDelay > 0) setTimeout(() => callback(), greetDelay).unref();
      else callback();
    },
    onRcptTo(address, _session, callback) {
      const text = rejected.get(address.address.toLowerCase());
      if (text === undefined) return callback();
      callback(Object.assign(new Error(text), { responseCode: 550 }));
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push(mail);
          if (failData) callback(Object.assign(new Error("Try again later"), { responseCode: 451 }));
          else callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => inner.listen(0, "127.0.0.1", resolve));
  const innerPort = (inner.server.address() as AddressInfo).port;
  const sockets = new Set<Socket>();
  let front: Server | null = null;
  let frontPort = 0;
  const openFront = () =>
    new Promise<void>((resolve, reject) => {
      const server = createServer((client) => {
        // Accepted just as the front went down (a pooled client reconnecting): closed like the rest,
        // else server.close() would wait for it forever.
        if (front !== server) {
          client.destroy();
          return;
        }
        const upstream = connect(innerPort, "127.0.0.1");
        sockets.add(client).add(upstream);
        client.pipe(upstream).pipe(client);
        const drop = () => {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
        };
        client.on("error", drop).on("close", drop);
        upstream.on("error", drop).on("close", drop);
      });
      server.once("error", reject);
      server.listen(frontPort, "127.0.0.1", () => {
        frontPort = (server.address() as AddressInfo).port;
        front = server;
        resolve();
      });
    });
  const closeFront = async () => {
    const server = front;
    front = null;
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  await openFront();
  return {
    url: `smtp://127.0.0.1:${frontPort}`,
    received,
    countByMessageId() {
      const counts = new Map<string, number>();
      for (const mail of received) {
        const id = mail.messageId ?? "";
        counts.set(id, (counts.get(id) ?? 0) + 1);
      }
      return counts;
    },
    receivedBy(address) {
      const wanted = address.toLowerCase();
      return received.filter((mail) =>
        [mail.to]
          .flat()
          .flatMap((to) => to?.value ?? [])
          .some((entry) => entry.address?.toLowerCase() === wanted),
      );
    },
    goDown: closeFront,
    comeBack: openFront,
    greetAfter(ms) {
      greetDelay = ms;
    },
    failAfterData(fail) {
      failData = fail;
    },
    rejectRecipient(address, text) {
      rejected.set(address.toLowerCase(), text);
    },
    connections: () => connections,
    async close() {
      await closeFront();
      await new Promise<void>((resolve) => inner.close(() => resolve()));
    },
  };
}
