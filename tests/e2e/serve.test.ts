import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Db, MongoClient } from "mongodb";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { type ServeProcess, spawnServe, withDbName } from "./serve-process.ts";
import { linkIn, type SmtpSink, startSmtpSink } from "./smtp-sink.ts";

/**
 * `pnpm serve` end to end: the real server process, real HTTP, real SMTP, the shared test database.
 * Covers docs/decisions/0003-standalone-server.md "Standalone server" (environment, TESSERA_CONFIG merged over it, graceful stop).
 */

const SECRET = "e2e-secret-0123456789abcdef0123456789abcdef";
const MAIL_FROM = "E2E Auth <auth@e2e.test>";

// A config module as a user would write one: options plus a hook (plain .mjs, no build step).
const CONFIG_MODULE = `
export default {
  appName: "E2E App",
  emailAndPassword: { requireEmailVerification: true },
  user: { deleteUser: { enabled: true } },
  session: { cookieCache: { enabled: true } },
  rateLimit: { enabled: false },
  hooks: {
    user: { create: { before: (user) => ({ data: { name: user.name + " (via config hook)" } }) } },
  },
};
`;

let smtp: SmtpSink;
let mongo: MongoClient;
let workDir: string;
const servers: ServeProcess[] = [];
const databases: Db[] = [];

beforeAll(async () => {
  smtp = await startSmtpSink();
  mongo = new MongoClient(inject("mongoUri"), { serverSelectionTimeoutMS: 5000 });
  workDir = await mkdtemp(join(tmpdir(), "tessera-e2e-"));
  await writeFile(join(workDir, "tessera.config.mjs"), CONFIG_MODULE);
});

afterEach(() => {
  for (const server of servers.splice(0)) server.kill();
});

afterAll(async () => {
  for (const db of databases) await db.dropDatabase().catch(() => {});
  await mongo?.close();
  await smtp?.close();
  await rm(workDir, { recursive: true, force: true });
});

function freshDatabase(): { uri: string; db: Db } {
  const name = `e2e_${randomBytes(6).toString("hex")}`;
  const db = mongo.db(name);
  databases.push(db);
  return { uri: withDbName(inject("mongoUri"), name), db };
}

function serve(env: Record<string, string>): ServeProcess {
  const server = spawnServe({ PORT: "0", ...env });
  servers.push(server);
  return server;
}

/** A browser-ish client: keeps cookies by name, sends the server's own Origin on POSTs. */
function createClient(apiURL: string) {
  const origin = new URL(apiURL).origin;
  const cookies = new Map<string, string>();
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const name = pair.slice(0, pair.indexOf("="));
      const value = pair.slice(pair.indexOf("=") + 1);
      if (value === "" || /max-age=0/i.test(line)) cookies.delete(name);
      else cookies.set(name, value);
    }
    return response;
  };
  const cookieHeader = (): Record<string, string> =>
    cookies.size > 0 ? { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join("; ") } : {};
  return {
    cookies,
    get: async (pathOrURL: string) =>
      keep(
        await fetch(pathOrURL.startsWith("http") ? pathOrURL : apiURL + pathOrURL, {
          headers: cookieHeader(),
          redirect: "manual",
        }),
      ),
    post: async (path: string, body: unknown) =>
      keep(
        await fetch(apiURL + path, {
          method: "POST",
          headers: { "content-type": "application/json", origin, ...cookieHeader() },
          body: JSON.stringify(body),
        }),
      ),
  };
}

// Each test spawns a node process (tsx start-up takes seconds on a busy machine).
describe("pnpm serve (standalone server process)", { timeout: 60_000 }, () => {
  it("runs sign-up → verify by mail → sign-in → session → reset by mail → sign-out over real HTTP", async () => {
    const { uri, db } = freshDatabase();
    const server = serve({
      MONGODB_URI: uri,
      TESSERA_SECRET: SECRET,
      SMTP_URL: smtp.url,
      TESSERA_MAIL_FROM: MAIL_FROM,
      TESSERA_CONFIG: join(workDir, "tessera.config.mjs"),
    });
    const apiURL = await server.listening;
    expect(apiURL).toMatch(/^http:\/\/localhost:\d+\/api\/auth$/);
    const client = createClient(apiURL);
    const email = `ada-${randomBytes(4).toString("hex")}@example.com`;

    // Sign-up: verification required (from TESSERA_CONFIG) → no session, a mail instead.
    const signUp = await client.post("/sign-up/email", { email, password: "first-password-1", name: "Ada" });
    expect(signUp.status).toBe(200);
    const signedUp = (await signUp.json()) as { token: string | null; user: { name: string } };
    expect(signedUp.token).toBeNull();
    expect(signedUp.user.name).toBe("Ada (via config hook)");
    expect(signUp.headers.getSetCookie()).toEqual([]);
    const stored = await db.collection("users").findOne({ email });
    expect(stored).toMatchObject({ name: "Ada (via config hook)", emailVerified: false });
    expect(await db.collection("sessions").countDocuments({ userId: stored?._id })).toBe(0);

    const verifyMail = await smtp.waitForMail(email, "Verify your email");
    expect(verifyMail.from?.value).toEqual([{ name: "E2E Auth", address: "auth@e2e.test" }]);
    expect(verifyMail.subject).toBe("Verify your email for E2E App");

    // Unverified: sign-in is refused.
    const early = await client.post("/sign-in/email", { email, password: "first-password-1" });
    expect(early.status).toBe(403);
    expect(await early.json()).toEqual({ code: "EMAIL_NOT_VERIFIED", message: "Email not verified" });

    // The mail's link, followed over HTTP, verifies the address.
    const verifyLink = linkIn(verifyMail, "/api/auth/verify-email");
    expect(verifyLink.origin).toBe(new URL(apiURL).origin);
    const verified = await client.get(verifyLink.href);
    expect(verified.status).toBe(302);
    expect(verified.headers.get("location")).toBe("/");
    expect(await db.collection("users").findOne({ email })).toMatchObject({ emailVerified: true });

    // Sign-in sets the session cookie and, with the cookie cache on, the cache cookie: two Set-Cookie lines.
    const signIn = await client.post("/sign-in/email", { email, password: "first-password-1" });
    expect(signIn.status).toBe(200);
    const cookieNames = signIn.headers.getSetCookie().map((line) => line.split("=")[0]);
    expect(cookieNames.sort()).toEqual([
      "tessera.known_device",
      "tessera.session_data",
      "tessera.session_token",
    ]);
    expect(await db.collection("sessions").countDocuments({ userId: stored?._id })).toBe(1);

    const session = await client.get("/get-session");
    expect(session.status).toBe(200);
    expect(((await session.json()) as { user: { email: string } }).user.email).toBe(email);

    // Reset by mail: request → link → redirect with the token → new password.
    const requested = await client.post("/request-password-reset", { email, redirectTo: "/reset" });
    expect(requested.status).toBe(200);
    expect(await requested.json()).toEqual({
      status: true,
      message: "If this email exists in our system, check your email for the reset link",
    });
    const resetMail = await smtp.waitForMail(email, "Reset your");
    expect(resetMail.subject).toBe("Reset your E2E App password");
    const forwarded = await client.get(linkIn(resetMail, "/api/auth/reset-password/").href);
    expect(forwarded.status).toBe(302);
    const location = new URL(forwarded.headers.get("location") ?? "", "http://app.invalid");
    expect(location.pathname).toBe("/reset");
    const token = location.searchParams.get("token");
    expect(token).toMatch(/^[A-Za-z0-9]{24}$/);
    const reset = await client.post("/reset-password", { newPassword: "second-password-2", token });
    expect(reset.status).toBe(200);
    expect(await reset.json()).toEqual({ status: true });
    expect(await db.collection("verifications").countDocuments({ identifier: /^reset-password:/ })).toBe(0);

    const oldPassword = await client.post("/sign-in/email", { email, password: "first-password-1" });
    expect(oldPassword.status).toBe(401);
    expect(await oldPassword.json()).toEqual({
      code: "INVALID_EMAIL_OR_PASSWORD",
      message: "Invalid email or password",
    });
    const newPassword = await client.post("/sign-in/email", { email, password: "second-password-2" });
    expect(newPassword.status).toBe(200);
    const token2 = ((await newPassword.json()) as { token: string }).token;

    // Sign-out deletes this session and clears the cookies.
    const signOut = await client.post("/sign-out", {});
    expect(signOut.status).toBe(200);
    expect(await signOut.json()).toEqual({ success: true });
    // The session's cookies are cleared; the browser stays known to the sign-in throttle.
    expect([...client.cookies.keys()]).toEqual(["tessera.known_device"]);
    expect(await db.collection("sessions").countDocuments({ token: token2 })).toBe(0);
    const after = await client.get("/get-session");
    expect(await after.json()).toBeNull();
  });

  it("answers 404 JSON outside /api/auth and 413 for a body over 1 MiB, streamed", async () => {
    const { uri } = freshDatabase();
    const server = serve({ MONGODB_URI: uri, TESSERA_SECRET: SECRET });
    const apiURL = await server.listening;
    const origin = new URL(apiURL).origin;

    const outside = await fetch(`${origin}/somewhere-else`);
    expect(outside.status).toBe(404);
    expect(await outside.json()).toEqual({ code: "NOT_FOUND", message: "Not found" });
    const ok = await fetch(`${apiURL}/ok`);
    expect(await ok.json()).toEqual({ ok: true });

    // Chunked (no Content-Length): the engine's cap must stop it while streaming.
    const huge = new TextEncoder().encode(`{"email":"${"a".repeat(1024 * 1024 + 10)}"}`);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let offset = 0; offset < huge.length; offset += 64 * 1024)
          controller.enqueue(huge.slice(offset, offset + 64 * 1024));
        controller.close();
      },
    });
    const tooLarge = await fetch(`${apiURL}/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toEqual({ code: "BODY_TOO_LARGE", message: "Request body too large" });
  });

  it("on SIGTERM finishes the request in flight, refuses new ones, and exits 0 promptly", async () => {
    const { uri, db } = freshDatabase();
    const server = serve({ MONGODB_URI: uri, TESSERA_SECRET: SECRET });
    const apiURL = await server.listening;
    const client = createClient(apiURL);
    const email = `grace-${randomBytes(4).toString("hex")}@example.com`;
    // Also leaves an idle keep-alive connection in fetch's pool: it must not hold the shutdown up.
    expect(
      (await client.post("/sign-up/email", { email, password: "pass-word-123", name: "G" })).status,
    ).toBe(200);

    // A sign-in whose body arrives in two halves, SIGTERM in between: the request is in flight.
    const json = JSON.stringify({ email, password: "pass-word-123" });
    let sendRest: () => void = () => {};
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(json.slice(0, 10)));
        sendRest = () => {
          controller.enqueue(new TextEncoder().encode(json.slice(10)));
          controller.close();
        };
      },
    });
    const inFlight = fetch(`${apiURL}/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
      duplex: "half",
    } as RequestInit);
    await sleep(300);
    server.child.kill("SIGTERM");
    await sleep(300);
    expect(server.child.exitCode).toBeNull();
    await expect(fetch(`${apiURL}/ok`, { headers: { connection: "close" } })).rejects.toThrow();

    sendRest();
    const response = await inFlight;
    expect(response.status).toBe(200);
    const signedIn = (await response.json()) as { token: string };
    const answeredAt = Date.now();
    expect(await server.exited).toBe(0);
    expect(Date.now() - answeredAt).toBeLessThan(3000);
    expect(server.stderr()).toContain("SIGTERM received, shutting down");
    // The in-flight sign-in really completed: its session is in the database.
    expect(await db.collection("sessions").countDocuments({ token: signedIn.token })).toBe(1);
  });

  it("refuses to start in production without TESSERA_SECRET (exit 1, says why)", async () => {
    const { uri } = freshDatabase();
    const server = serve({ MONGODB_URI: uri, NODE_ENV: "production" });
    expect(await server.exited).toBe(1);
    expect(server.stderr()).toContain("TESSERA_SECRET is required when NODE_ENV=production");
    expect(server.stdout()).not.toContain("Tessera listening");
  });

  it("starts outside production without TESSERA_SECRET, warning loudly", async () => {
    const { uri } = freshDatabase();
    const server = serve({ MONGODB_URI: uri });
    const apiURL = await server.listening;
    expect(server.stderr()).toContain("WARNING: TESSERA_SECRET is not set");
    expect((await fetch(`${apiURL}/ok`)).status).toBe(200);
  });
});

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
