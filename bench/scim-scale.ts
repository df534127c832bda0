/**
 * `tsx bench/scim-scale.ts` (issue 32 §4): what a directory's filtered SCIM list costs with 1,000
 * users against 100,000 (BENCH_SCALE_USERS) spread over 1,000 organizations, on the embedded
 * database, through `auth.handler` in process; and the median answer time of a PATCH deactivation.
 * Targets: each filtered list at most 1.5× its time at 1,000 users; deactivation ≤ 50 ms at the
 * median. A measurement, not a test: exits 0 either way. Users go in through the users' bulk insert
 * (with their address claims), the directory's rows through scimUsers' owner; the measured
 * organization is made over HTTP and holds 100 directory users at both sizes.
 */
import { randomBytes } from "node:crypto";
import { ObjectId } from "../packages/auth-core/src/db/ids.ts";
import { insertScimUsersInBulk } from "../packages/auth-core/src/features/scim/users/store.ts";
import { insertUsersInBulk } from "../packages/auth-core/src/features/users/store.ts";
import { type Auth, createAuth } from "../packages/auth-core/src/index.ts";
import { startDevDatabase } from "../packages/dev-db/src/index.ts";
import { positiveInteger } from "./settings.ts";

const LARGE = positiveInteger("BENCH_SCALE_USERS", 100_000);
const SMALL = 1_000;
const ORGANIZATIONS = 1_000;
const IN_ORG = 100;
const ROUNDS = positiveInteger("BENCH_SCIM_ROUNDS", 40);
const TOKEN = "bench-scim-token-0123456789abcdefghijklmnopqrstuv";
const ORIGIN = "http://127.0.0.1";
const FILTERS = ['userName eq "scale-50@example.com"', 'emails.value co "scale-5"', "active eq true"];

async function call(auth: Auth, method: string, path: string, body?: unknown, cookie?: string) {
  const headers = new Headers({ origin: ORIGIN });
  if (path.startsWith("/scim/")) headers.set("authorization", `Bearer ${TOKEN}`);
  if (cookie) headers.set("cookie", cookie);
  if (body !== undefined) headers.set("content-type", "application/json");
  return auth.handler(
    new Request(`${ORIGIN}/api/auth${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
}

async function median(times: number[]): Promise<number> {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function timeRequest(run: () => Promise<Response>): Promise<number> {
  const started = performance.now();
  const response = await run();
  await response.text();
  if (!response.ok) throw new Error(`answered ${response.status}`);
  return performance.now() - started;
}

async function measure(uri: string, users: number): Promise<Record<string, number>> {
  const dbName = `scim_bench_${randomBytes(5).toString("hex")}`;
  const auth = createAuth({
    database: { uri, dbName },
    secret: "bench-secret-0123456789abcdef0123456789abcdef",
    baseURL: ORIGIN,
    logger: { info: () => {}, warn: () => {}, error: () => {} },
    rateLimit: { enabled: false },
    scim: { connections: [{ id: "bench", organization: "measured", token: TOKEN }] },
  });
  await auth.migrate();
  const signedUp = await call(auth, "POST", "/sign-up/email", {
    email: "owner@bench.test",
    password: "bench-password-1",
    name: "Owner",
  });
  const cookie = signedUp.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  const org = await call(
    auth,
    "POST",
    "/organization/create",
    { name: "Measured", slug: "measured" },
    cookie,
  );
  const measuredId = new ObjectId(((await org.json()) as { id: string }).id);
  const collections = auth.context.collections;
  const others = Array.from({ length: ORGANIZATIONS - 1 }, () => new ObjectId());
  const seeded = performance.now();
  const now = new Date();
  for (let start = 0; start < users; start += 5_000) {
    const count = Math.min(5_000, users - start);
    const docs = Array.from({ length: count }, (_, k) => ({
      _id: new ObjectId(),
      email: `scale-${start + k}@example.com`,
      emailVerified: true,
      name: `Scale ${start + k}`,
      image: null,
      createdAt: now,
      updatedAt: now,
    }));
    await insertUsersInBulk(collections, docs);
    await insertScimUsersInBulk(
      collections,
      docs.map((user, k) => ({
        _id: new ObjectId(),
        organizationId: start + k < IN_ORG ? measuredId : others[(start + k) % others.length]!,
        userId: user._id,
        userName: user.email,
        userNameKey: user.email,
        externalId: `ext-${start + k}`,
        givenName: null,
        familyName: null,
        active: true,
        createdByDirectory: true,
        tokenId: new ObjectId(),
        createdAt: now,
        updatedAt: now,
      })),
    );
  }
  console.error(`seeded ${users} users in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);
  const result: Record<string, number> = {};
  for (const filter of FILTERS) {
    const path = `/scim/v2/Users?count=100&filter=${encodeURIComponent(filter)}`;
    for (let i = 0; i < 5; i++) await timeRequest(() => call(auth, "GET", path));
    const times: number[] = [];
    for (let i = 0; i < ROUNDS; i++) times.push(await timeRequest(() => call(auth, "GET", path)));
    result[filter] = await median(times);
  }
  const deactivations: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const made = await call(auth, "POST", "/scim/v2/Users", { userName: `patch-${i}@bench.test` });
    const { id } = (await made.json()) as { id: string };
    const patch = { Operations: [{ op: "Replace", path: "active", value: "False" }] };
    deactivations.push(await timeRequest(() => call(auth, "PATCH", `/scim/v2/Users/${id}`, patch)));
  }
  result["PATCH active False"] = await median(deactivations);
  await auth.close();
  return result;
}

async function main(): Promise<void> {
  const database = await startDevDatabase({ log: () => {} });
  try {
    const small = await measure(database.uri, SMALL);
    const large = await measure(database.uri, LARGE);
    console.log(
      `\nSCIM at ${SMALL} vs ${LARGE} users (${ORGANIZATIONS} organizations), median ms, ${ROUNDS} rounds`,
    );
    console.log("| request | 1,000 | large | ratio | target | verdict |");
    console.log("| --- | ---: | ---: | ---: | --- | --- |");
    for (const filter of FILTERS) {
      const ratio = large[filter]! / small[filter]!;
      console.log(
        `| GET /Users?count=100&filter=${filter} | ${small[filter]!.toFixed(2)} | ${large[filter]!.toFixed(2)} | ${ratio.toFixed(2)} | ≤ 1.5× | ${ratio <= 1.5 ? "PASS" : "MISS"} |`,
      );
    }
    const patch = large["PATCH active False"]!;
    console.log(
      `| PATCH active "False" | ${small["PATCH active False"]!.toFixed(2)} | ${patch.toFixed(2)} | | ≤ 50 ms | ${patch <= 50 ? "PASS" : "MISS"} |`,
    );
  } finally {
    await database.stop();
  }
}

await main();
