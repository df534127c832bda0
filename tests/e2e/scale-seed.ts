import { randomBytes } from "node:crypto";
import { MongoClient, ObjectId } from "mongodb";
import { hashPassword } from "../../packages/auth-core/src/crypto/index.ts";
import { insertAccountsInBulk } from "../../packages/auth-core/src/db/accounts.ts";
import { openCollections } from "../../packages/auth-core/src/db/collections.ts";
import type { AccountDoc, SessionDoc, UserDoc } from "../../packages/auth-core/src/db/documents.ts";
import { insertMember } from "../../packages/auth-core/src/features/organization/members/store.ts";
import { insertSessionsInBulk } from "../../packages/auth-core/src/features/session/store.ts";
import { insertUsersInBulk } from "../../packages/auth-core/src/features/users/store.ts";
import { createAuth } from "../../packages/auth-core/src/index.ts";

/**
 * The data of the scale bench (bench/scale.ts): users written through the stores' bulk inserts —
 * each with its address claim, a credential account and a live session — and two organizations
 * built through the server API. Here rather than in bench/ because the driver resolves here.
 */

export const scaleEmailOf = (i: number) => `scale-${i}@example.com`;
const emailOf = scaleEmailOf;

export interface ScaleSeedInput {
  uri: string;
  dbName: string;
  users: number;
  secret: string;
  password: string;
  /** Members of the two organizations (users 0.. of the seed; user 0 owns both and is an admin). */
  bigOrg: number;
  smallOrg: number;
}

export interface ScaleSeed {
  bigOrg: string;
  smallOrg: string;
  seedSeconds: number;
}

/** Users 0..n-1 with credential accounts and one live session each; user 0 an admin. */
export async function seedScale(input: ScaleSeedInput): Promise<ScaleSeed> {
  const { uri, dbName, users, bigOrg: BIG_ORG, smallOrg: SMALL_ORG } = input;
  const started = performance.now();
  const client = await MongoClient.connect(uri);
  try {
    const db = client.db(dbName);
    const auth = createAuth({
      database: db,
      secret: input.secret,
      baseURL: "http://127.0.0.1",
      logger: { info: () => {}, warn: () => {}, error: () => {} },
      rateLimit: { enabled: false },
      organization: { membershipLimit: 2 * BIG_ORG },
    });
    await auth.migrate();
    const collections = openCollections(db);
    const hash = await hashPassword(input.password);
    const now = new Date();
    const expiresAt = new Date(now.getTime() + 7 * 86400_000);
    const ids: ObjectId[] = [];
    for (let start = 0; start < users; start += 5_000) {
      const count = Math.min(5_000, users - start);
      const docs: UserDoc[] = Array.from({ length: count }, (_, k) => ({
        _id: new ObjectId(),
        email: emailOf(start + k),
        emailVerified: true,
        name: `Scale ${start + k}`,
        image: null,
        ...(start + k === 0 ? { role: "admin" } : {}),
        createdAt: now,
        updatedAt: now,
      }));
      await insertUsersInBulk(collections, docs);
      if (ids.length < BIG_ORG) ids.push(...docs.slice(0, BIG_ORG - ids.length).map((doc) => doc._id));
      const accounts: AccountDoc[] = docs.map((user) => ({
        _id: new ObjectId(),
        providerId: "credential",
        accountId: user._id.toHexString(),
        userId: user._id,
        password: hash,
        accessToken: null,
        refreshToken: null,
        idToken: null,
        accessTokenExpiresAt: null,
        refreshTokenExpiresAt: null,
        scope: null,
        createdAt: now,
        updatedAt: now,
      }));
      await insertAccountsInBulk(collections, accounts);
      const sessions: SessionDoc[] = docs.map((user) => ({
        _id: new ObjectId(),
        userId: user._id,
        token: randomBytes(24).toString("base64url").slice(0, 32),
        expiresAt,
        createdAt: now,
        updatedAt: now,
        ipAddress: "127.0.0.1",
        userAgent: "bench",
        activeOrganizationId: null,
        dontRemember: false,
      }));
      await insertSessionsInBulk(collections, sessions);
    }
    const owner = ids[0]!.toHexString();
    const createOrg = async (slug: string) => {
      const { data } = await auth.api.createOrganization({ body: { name: slug, slug, userId: owner } });
      return data.id;
    };
    const bigOrg = await createOrg("scale-big");
    const smallOrg = await createOrg("scale-small");
    // The members through the members store (its insert, one by one): 1,100 server-API adds, each
    // with its checks and seat claim, took minutes on a loaded machine.
    const add = async (organizationId: string, count: number) => {
      const organization = ObjectId.createFromHexString(organizationId);
      for (const [index, user] of ids.slice(1, count).entries()) {
        await insertMember(collections, {
          _id: new ObjectId(),
          organizationId: organization,
          userId: user,
          role: "member",
          createdAt: now,
          teamId: null,
          seat: index + 1,
        });
      }
    };
    await add(bigOrg, BIG_ORG);
    await add(smallOrg, SMALL_ORG);
    return { bigOrg, smallOrg, seedSeconds: (performance.now() - started) / 1000 };
  } finally {
    await client.close();
  }
}

const SLOW_MS = 2_000;

export interface TimedRequest {
  name: string;
  /** A fresh request each time (a sign-in's body, cookies). */
  make: (round: number) => Request;
  /** What a correct answer's body contains. */
  expect: string;
}

export interface InProcessTiming {
  name: string;
  /** Median wall time of one request through `auth.handler`, ms. */
  wallMs: number;
  /** Median of the summed database round trips of one request (driver command monitoring), ms. */
  databaseMs: number;
  /** Database commands per request (the last round). */
  commands: number;
  /** Why it could not be timed (an answer that was not the expected one). */
  refused?: string;
}

/**
 * Each request through `auth.handler` in this process, one after the other (3 warm-ups, then
 * `rounds`): the cost of one request with nothing else queued, so that the data's size is what
 * differs between two runs, not the machine's load.
 */
export async function timeInProcess(input: {
  uri: string;
  dbName: string;
  secret: string;
  requests: TimedRequest[];
  rounds: number;
  membershipLimit: number;
}): Promise<InProcessTiming[]> {
  const client = new MongoClient(input.uri, { monitorCommands: true });
  let spent: number[] | null = null;
  client.on("commandSucceeded", (event) => spent?.push(event.duration));
  client.on("commandFailed", (event) => spent?.push(event.duration));
  try {
    const auth = createAuth({
      database: client.db(input.dbName),
      secret: input.secret,
      baseURL: "http://127.0.0.1",
      logger: { info: () => {}, warn: () => {}, error: () => {} },
      rateLimit: { enabled: false },
      organization: { membershipLimit: input.membershipLimit },
    });
    const median = (values: number[]) =>
      values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
    const timings: InProcessTiming[] = [];
    let round = 0;
    for (const request of input.requests) {
      const wall: number[] = [];
      const database: number[] = [];
      let commands = 0;
      let refused: string | undefined;
      for (let i = 0; i < input.rounds + 3 && !refused; i++) {
        spent = [];
        const started = performance.now();
        const response = await auth.handler(request.make(round++));
        const text = await response.text();
        const elapsed = performance.now() - started;
        if (!response.ok || !text.includes(request.expect)) {
          refused = `answered ${response.status} after ${Math.round(elapsed)} ms: ${text.slice(0, 100)}`;
        } else if (i >= 3 || elapsed > SLOW_MS) {
          wall.push(elapsed);
          database.push(spent.reduce((sum, ms) => sum + ms, 0));
          commands = spent.length;
        }
        spent = null;
        // A request this slow is timed once: its figure says enough, and rounds would take minutes.
        if (elapsed > SLOW_MS) break;
      }
      timings.push({
        name: request.name,
        wallMs: median(wall),
        databaseMs: median(database),
        commands,
        refused,
      });
    }
    return timings;
  } finally {
    await client.close();
  }
}
