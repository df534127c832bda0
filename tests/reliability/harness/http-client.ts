import { Agent, request } from "node:http";

/**
 * Real HTTP over keep-alive sockets to 127.0.0.1, one cookie jar per simulated person. Every request
 * is bounded on the client side too: one still unanswered after `hangAfterMs` is destroyed and
 * reported as a hang (status 0, `hung: true`), so no loop can wait forever.
 */
export interface Answer {
  status: number;
  body: unknown;
  ms: number;
  /** Set when no HTTP answer came: a reset connection, a refused one, or a hang. */
  error: string | null;
  hung: boolean;
}

export interface HttpTarget {
  apiURL: string;
  origin: string;
  agent: Agent;
  hangAfterMs: number;
}

export function createAgent(connections: number): Agent {
  return new Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
}

export class Person {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly target: HttpTarget) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  forgetCookies(): void {
    this.cookies.clear();
  }

  get(path: string): Promise<Answer> {
    return this.send("GET", path, undefined);
  }

  post(path: string, body: unknown): Promise<Answer> {
    return this.send("POST", path, body);
  }

  /** A GET with the given Cookie header instead of this person's; answers change no cookie here. */
  getWithCookie(path: string, cookie: string): Promise<Answer> {
    return this.send("GET", path, undefined, cookie);
  }

  send(method: string, path: string, body: unknown, cookieOverride?: string): Promise<Answer> {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const url = new URL(this.target.apiURL + path);
    const headers: Record<string, string> = { origin: this.target.origin };
    if (text !== undefined) headers["content-type"] = "application/json";
    const cookie = cookieOverride ?? this.cookieHeader;
    if (cookie !== "") headers.cookie = cookie;
    const started = performance.now();
    return new Promise<Answer>((resolve) => {
      let settled = false;
      const finish = (answer: Omit<Answer, "ms">) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...answer, ms: performance.now() - started });
      };
      const req = request(url, { method, headers, agent: this.target.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", (error) => finish({ status: 0, body: null, error: error.message, hung: false }));
        res.on("end", () => {
          if (cookieOverride === undefined) this.keepCookies(res.headers["set-cookie"] ?? []);
          const raw = Buffer.concat(chunks).toString("utf8");
          let parsed: unknown = raw;
          try {
            parsed = raw === "" ? null : JSON.parse(raw);
          } catch {
            // Not JSON (an HTML page): kept as text.
          }
          finish({ status: res.statusCode ?? 0, body: parsed, error: null, hung: false });
        });
      });
      const timer = setTimeout(() => {
        req.destroy(new Error("hung"));
        finish({
          status: 0,
          body: null,
          error: `no answer within ${this.target.hangAfterMs} ms`,
          hung: true,
        });
      }, this.target.hangAfterMs);
      req.on("error", (error) => finish({ status: 0, body: null, error: error.message, hung: false }));
      req.end(text);
    });
  }

  private keepCookies(lines: string[]): void {
    for (const line of lines) {
      const pair = line.split(";")[0] ?? "";
      const at = pair.indexOf("=");
      if (at <= 0) continue;
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = /max-age=0/i.test(line) || value === "";
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}
