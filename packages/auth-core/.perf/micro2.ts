import { createAuth } from "../src/index.ts";
import { engineOf } from "../src/http/handler.ts";
import { RequestHeaders } from "../src/server/request-headers.ts";
const auth = createAuth({ database: { uri: process.env.MONGO_URI!, dbName: "probe_" + Date.now() }, secret: "bench-secret-0123456789abcdef0123456789abcdef", baseURL: "http://localhost:3000", rateLimit: { enabled: false }, session: { cookieCache: { enabled: true } }, logger: { info() {}, warn() {}, error() {} } } as never);
await auth.migrate();
const engine = engineOf(auth.handler)!;
const base = "http://localhost:3000/api/auth";
const post = (p: string, b: unknown) => auth.handler(new Request(base + p, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(b) }));
await post("/sign-up/email", { email: "m@example.com", password: "bench-password-1", name: "M" });
const r = await post("/sign-in/email", { email: "m@example.com", password: "bench-password-1" });
const cookie = r.headers.getSetCookie().map((l) => l.split(";")[0]).join("; ");
const raw = ["Host", "127.0.0.1:3000", "Content-Type", "application/json", "cookie", cookie, "User-Agent", "autocannon"];
const once = async () => (await engine({ method: "GET", url: new URL("http://localhost:3000" + "/api/auth/get-session"), headers: new RequestHeaders(raw.slice()), remoteAddress: "127.0.0.1", readBody: async () => ({}) })).body;
const N = Number(process.env.N ?? 200000), C = 10;
for (let i = 0; i < 20000; i++) await once();
for (let k = 0; k < 3; k++) {
  const t = performance.now();
  await Promise.all(Array.from({ length: C }, async () => { for (let i = 0; i < N / C; i++) await once(); }));
  console.log(((performance.now() - t) * 1000 / N).toFixed(2), "us/req");
}
await auth.close(); process.exit(0);
