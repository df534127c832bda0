import { beforeEach, describe, expect, it } from "vitest";
import { signUp, TestBrowser } from "#test/browser.ts";
import { type TestAuth, useFreshTestAuth } from "#test/test-auth.ts";
import { expectCatalogueError, PASSWORD, postJsonText, sendRaw, snapshotDatabase } from "./helpers.ts";

/** Request hygiene: every malformed request is a clean 4xx. */
let t: TestAuth;
beforeEach(async () => {
  t = await freshTestAuth();
});
const freshTestAuth = useFreshTestAuth();

const MIB = 1024 * 1024;
const signUpBody = (name: string) => JSON.stringify({ name, email: "big@example.com", password: PASSWORD });

describe("body size cap (1 MiB)", () => {
  it("answers 413 for a 2 MiB body announced by Content-Length, and writes nothing", async () => {
    const before = await snapshotDatabase(t.db);
    const res = await postJsonText(t.auth, "/sign-up/email", signUpBody("x".repeat(2 * MIB)));
    expectCatalogueError(res, 413, "BODY_TOO_LARGE", "Request body too large");
    expect(await snapshotDatabase(t.db)).toBe(before);
  });

  it("answers 413 for a chunked body without Content-Length, and stops reading early", async () => {
    let sent = 0;
    const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
    const total = 4 * MIB;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"name":"'));
      },
      pull(controller) {
        if (sent >= total) return controller.close();
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const res = await sendRaw(t.auth, "POST", "/sign-up/email", {
      headers: { "content-type": "application/json" },
      body: stream,
    });
    expectCatalogueError(res, 413, "BODY_TOO_LARGE", "Request body too large");
    expect(sent).toBeLessThan(total);
    expect(await t.db.collection("users").countDocuments()).toBe(0);
  });

  it("reads a body of exactly the cap and one byte more is refused", async () => {
    const padding = (bytes: number) => "x".repeat(bytes - signUpBody("").length);
    const atCap = await postJsonText(t.auth, "/sign-up/email", signUpBody(padding(MIB)));
    // Read and parsed: the 1 MiB name then fails the field rule, not the size cap.
    expectCatalogueError(atCap, 400, "VALIDATION_ERROR", "Invalid request");
    const overCap = await postJsonText(t.auth, "/sign-up/email", signUpBody(padding(MIB + 1)));
    expectCatalogueError(overCap, 413, "BODY_TOO_LARGE", "Request body too large");
  });
});

describe("body parsing", () => {
  it("answers 400 INVALID_JSON for malformed JSON, without parser details", async () => {
    for (const text of ['{"email":', "{email: 1}", "[1,2", '{"a":1}}']) {
      const res = await postJsonText(t.auth, "/sign-in/email", text);
      expectCatalogueError(res, 400, "INVALID_JSON", "Invalid JSON body");
      expect(res.text).not.toMatch(/position|Unexpected|SyntaxError/);
    }
  });

  it("answers 400 for a JSON body that is not an object", async () => {
    for (const text of ["[]", '"ada@example.com"', "42", "true"]) {
      const res = await postJsonText(t.auth, "/sign-in/email", text);
      expectCatalogueError(res, 400, "VALIDATION_ERROR", "Invalid request");
    }
  });

  it("answers 400 (not 500) for JSON nested 10 000 levels deep", async () => {
    const deep = `{"email":${"[".repeat(10_000)}${"]".repeat(10_000)},"password":"x"}`;
    const res = await postJsonText(t.auth, "/sign-in/email", deep);
    expect(res.status).toBe(400);
    expect((res.json as { code: string }).code).toMatch(/^(VALIDATION_ERROR|INVALID_JSON)$/);
  });

  // Fields typed as free JSON (API-key metadata, organization metadata) recurse in their schemas:
  // the depth bound must hold there too, signed in or not, and write nothing.
  it.each([
    ["/api-key/create", (deep: string) => `{"metadata":${deep}}`],
    ["/organization/create", (deep: string) => `{"name":"Acme","slug":"acme","metadata":${deep}}`],
  ])(
    "answers 400 VALIDATION_ERROR (not 500) for metadata nested 10 000 levels deep on %s",
    async (path, body) => {
      const deep = `${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}`;
      const browser = new TestBrowser(t.auth);
      await signUp(browser, { email: "deep@example.com" });
      const before = await snapshotDatabase(t.db);
      const headers = { "content-type": "application/json" };
      for (const client of [browser, new TestBrowser(t.auth)]) {
        const res = await client.request("POST", path, { rawBody: body(deep), headers });
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ code: "VALIDATION_ERROR", message: "Invalid request" });
      }
      expect(await snapshotDatabase(t.db)).toBe(before);
    },
  );

  it.each([
    ["text/plain", JSON.stringify({ email: "a@example.com", password: PASSWORD })],
    [
      "multipart/form-data; boundary=x",
      '--x\r\nContent-Disposition: form-data; name="email"\r\n\r\na@x.io\r\n--x--',
    ],
    ["application/x-www-form-urlencoded", "email[$ne]=x&password[$ne]=x"],
    ["application/xml", "<email>a@example.com</email>"],
  ])("answers 400 UNSUPPORTED_CONTENT_TYPE for %s on a JSON endpoint", async (type, body) => {
    const before = await snapshotDatabase(t.db);
    const res = await sendRaw(t.auth, "POST", "/sign-up/email", { headers: { "content-type": type }, body });
    expectCatalogueError(res, 400, "UNSUPPORTED_CONTENT_TYPE", "Unsupported content type");
    expect(await snapshotDatabase(t.db)).toBe(before);
  });

  it("answers 400 for a non-empty body without a content type", async () => {
    const res = await sendRaw(t.auth, "POST", "/sign-in/email", { body: '{"email":"a@example.com"}' });
    expectCatalogueError(res, 400, "UNSUPPORTED_CONTENT_TYPE", "Unsupported content type");
  });
});

describe("routing", () => {
  it.each(["/nope", "/sign-in", "/sign-in/email/extra"])(
    "answers 404 NOT_FOUND for the unknown path %s",
    async (path) => {
      const res = await sendRaw(t.auth, "GET", path);
      expectCatalogueError(res, 404, "NOT_FOUND", "Not found");
    },
  );

  it.each([
    "http://localhost:3000/ok",
    "http://localhost:3000/other/ok",
    "http://localhost:3000/api/authx/ok",
    "http://localhost:3000/api/auth",
    "http://localhost:3000/api/auth/",
    "http://localhost:3000/API/AUTH/ok",
  ])("answers 404 outside the base path: %s", async (url) => {
    const res = await sendRaw(t.auth, "GET", url);
    expectCatalogueError(res, 404, "NOT_FOUND", "Not found");
  });

  // GHSA-x732-6j76-qmhm: an alias of a path must not reach the endpoint past its path-keyed rules.
  it.each([
    "//sign-in/email",
    "/sign-in//email",
    "/sign-in/email/",
    "/SIGN-IN/email",
    "/sign-in/%65mail",
    "/sign-in/email;x",
    "/sign-in/email%00",
  ])("does not treat %s as an alias of /sign-in/email", async (path) => {
    const res = await sendRaw(t.auth, "POST", path, {
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "a@example.com", password: PASSWORD }),
    });
    expectCatalogueError(res, 404, "NOT_FOUND", "Not found");
  });

  it.each([
    ["GET", "/sign-in/email", "POST"],
    ["PUT", "/sign-up/email", "POST"],
    ["DELETE", "/sign-out", "POST"],
    ["POST", "/get-session", "GET, HEAD"],
    ["POST", "/ok", "GET, HEAD"],
    ["OPTIONS", "/ok", "GET, HEAD"],
  ])("answers 405 with Allow for %s %s", async (method, path, allow) => {
    const res = await sendRaw(t.auth, method, path);
    expectCatalogueError(res, 405, "METHOD_NOT_ALLOWED", "Method not allowed");
    expect(res.headers.get("allow")).toBe(allow);
  });
});

describe("HEAD", () => {
  it("answers like GET with the same status and headers, without a body", async () => {
    const get = await sendRaw(t.auth, "GET", "/ok");
    const head = await sendRaw(t.auth, "HEAD", "/ok");
    expect(get).toMatchObject({ status: 200, json: { ok: true } });
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
    expect(head.headers.get("content-type")).toBe(get.headers.get("content-type"));
  });

  it("keeps the error status of GET, without a body", async () => {
    const head = await sendRaw(t.auth, "HEAD", "/nope");
    expect(head.status).toBe(404);
    expect(head.text).toBe("");
    const notAllowed = await sendRaw(t.auth, "HEAD", "/sign-in/email");
    expect(notAllowed.status).toBe(405);
    expect(notAllowed.headers.get("allow")).toBe("POST");
  });
});

describe("unexpected exceptions", () => {
  it("answer 500 INTERNAL_SERVER_ERROR with no stack or internals, and log the cause", async () => {
    const logged: unknown[] = [];
    const failing = await freshTestAuth({
      logger: { info: () => {}, warn: () => {}, error: (_message, detail) => logged.push(detail) },
      hooks: {
        user: {
          create: {
            before: () => {
              throw new Error("hook exploded: mongodb://admin:hunter2@db.internal/secret");
            },
          },
        },
      },
    });
    try {
      const res = await new TestBrowser(failing.auth).post("/sign-up/email", {
        name: "Ada",
        email: "ada@example.com",
        password: PASSWORD,
      });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ code: "INTERNAL_SERVER_ERROR", message: "Internal server error" });
      expect(JSON.stringify(res.body)).not.toMatch(/hunter2|exploded|\bat\b|\.ts:/);
      expect(res.headers.getSetCookie()).toEqual([]);
      expect(await failing.db.collection("users").countDocuments()).toBe(0);
      expect(await failing.db.collection("accounts").countDocuments()).toBe(0);
      expect(logged.some((detail) => detail instanceof Error && /hook exploded/.test(detail.message))).toBe(
        true,
      );
    } finally {
      await failing.close();
    }
  });

  it("keep the process serving: the next request succeeds", async () => {
    const failing = await freshTestAuth({
      hooks: {
        session: {
          create: {
            before: () => {
              throw new TypeError("boom");
            },
          },
        },
      },
    });
    try {
      const res = await postJsonText(
        failing.auth,
        "/sign-up/email",
        JSON.stringify({ name: "Ada", email: "ada@example.com", password: PASSWORD }),
      );
      expect(res.status).toBe(500);
      expect(await sendRaw(failing.auth, "GET", "/ok")).toMatchObject({ status: 200, json: { ok: true } });
    } finally {
      await failing.close();
    }
  });
});
