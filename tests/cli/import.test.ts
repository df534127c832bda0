import { randomBytes, scrypt } from "node:crypto";
import { type Db, MongoClient, ObjectId } from "mongodb";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { signIn } from "#test/admin.ts";
import { TestBrowser } from "#test/browser.ts";
import { TEST_SECRET, useTestAuth } from "#test/test-auth.ts";
import { importedAccountId } from "../../packages/auth-core/src/operator.ts";
import { importAction } from "../../packages/cli/src/commands/import.ts";
import { checkDataInvariants } from "../../packages/cli/src/invariants.ts";
import { buildCli, runCli } from "./cli-process.ts";
import { testRun } from "./run-context.ts";

/**
 * `tessera import` from a database written the way Better Auth's MongoDB adapter writes it (its
 * models as collection names, ObjectId ids and references, `salt:key` hex scrypt hashes with
 * N=16384, r=16, p=1, 64 bytes over the NFKC password and the salt's hex text) and from Auth.js's.
 */
const t = useTestAuth();
let client: MongoClient;
let source: Db;
let authjs: Db;

function betterAuthHash(password: string): Promise<string> {
  const salt = randomBytes(16).toString("hex");
  return new Promise((resolve, reject) =>
    scrypt(
      password.normalize("NFKC"),
      salt,
      64,
      { N: 16384, r: 16, p: 1, maxmem: 64 * 1024 * 1024 },
      (error, key) => (error ? reject(error) : resolve(`${salt}:${key.toString("hex")}`)),
    ),
  );
}

const ids = {
  alice: new ObjectId(),
  bob: new ObjectId(),
  carol: new ObjectId(),
  twin: new ObjectId(),
  acme: new ObjectId(),
  team: new ObjectId(),
};

beforeAll(async () => {
  client = new MongoClient(inject("mongoUri"));
  source = client.db(`ba_${randomBytes(4).toString("hex")}`);
  authjs = client.db(`aj_${randomBytes(4).toString("hex")}`);
  const now = new Date("2025-06-01T10:00:00Z");
  const user = (id: ObjectId, email: string, name: string, extra = {}) => ({
    _id: id,
    name,
    email,
    emailVerified: true,
    image: null,
    createdAt: now,
    updatedAt: now,
    ...extra,
  });
  await source
    .collection("user")
    .insertMany([
      user(ids.alice, "alice@example.com", "Alice", { role: "admin" }),
      user(ids.bob, "bob@example.com", "Bob"),
      user(ids.carol, "carol@example.com", "Carol", { banned: true, banReason: "spam", banExpires: null }),
      user(ids.twin, "ALICE@example.com", "Alice again"),
    ]);
  const credential = async (userId: ObjectId, password: string) => ({
    _id: new ObjectId(),
    accountId: userId.toHexString(),
    providerId: "credential",
    userId,
    password: await betterAuthHash(password),
    createdAt: now,
    updatedAt: now,
  });
  await source.collection("account").insertMany([
    await credential(ids.alice, "alice's long password"),
    await credential(ids.bob, "bób's pässword 42"),
    {
      _id: new ObjectId(),
      accountId: "gh-4242",
      providerId: "github",
      userId: ids.carol,
      accessToken: "gho_plain",
      scope: "read:user,user:email",
      createdAt: now,
      updatedAt: now,
    },
  ]);
  await source.collection("organization").insertOne({
    _id: ids.acme,
    name: "Acme",
    slug: "acme",
    logo: null,
    metadata: null,
    createdAt: now,
  });
  await source.collection("member").insertMany([
    { _id: new ObjectId(), organizationId: ids.acme, userId: ids.alice, role: "owner", createdAt: now },
    { _id: new ObjectId(), organizationId: ids.acme, userId: ids.bob, role: "member", createdAt: now },
  ]);
  await source
    .collection("team")
    .insertOne({ _id: ids.team, name: "Core", organizationId: ids.acme, createdAt: now });
  await source
    .collection("teamMember")
    .insertOne({ _id: new ObjectId(), teamId: ids.team, userId: ids.bob, createdAt: now });
  await source.collection("invitation").insertOne({
    _id: new ObjectId(),
    organizationId: ids.acme,
    email: "dave@example.com",
    role: "member",
    status: "pending",
    inviterId: ids.alice,
    expiresAt: new Date(Date.now() + 86_400_000),
    createdAt: now,
  });
  await source
    .collection("session")
    .insertOne({ _id: new ObjectId(), userId: ids.alice, token: "x", expiresAt: now });

  const erin = new ObjectId();
  await authjs
    .collection("users")
    .insertOne({ _id: erin, name: "Erin", email: "Erin@Example.com", emailVerified: null, image: null });
  await authjs.collection("accounts").insertMany([
    {
      _id: new ObjectId(),
      userId: erin,
      type: "oauth",
      provider: "google",
      providerAccountId: "g-1",
      access_token: "ya29",
      scope: "openid email",
    },
    {
      _id: new ObjectId(),
      userId: erin,
      type: "email",
      provider: "email",
      providerAccountId: "erin@example.com",
    },
  ]);
}, 60_000);

afterAll(async () => {
  await source.dropDatabase();
  await authjs.dropDatabase();
  await client.close();
});

const sourceUri = () => inject("mongoUri");

describe("tessera import --from better-auth", () => {
  it("--dry-run counts and writes nothing", async () => {
    const report = await importAction(testRun(t.db.databaseName), {
      from: "better-auth",
      sourceUri: sourceUri(),
      sourceDb: source.databaseName,
      dryRun: true,
    });
    expect(report.counts.users).toEqual({ copied: 3, existing: 0, refused: 1 });
    expect(await t.db.collection("users").countDocuments()).toBe(0);
    expect(await t.db.collection("listingVersions").countDocuments()).toBe(0);
  });

  it("copies users, accounts, organizations, members, teams and invitations; refuses what it cannot take, saying why", async () => {
    const report = await importAction(testRun(t.db.databaseName), {
      from: "better-auth",
      sourceUri: sourceUri(),
      sourceDb: source.databaseName,
    });
    expect(report.counts).toEqual({
      users: { copied: 3, existing: 0, refused: 1 },
      accounts: { copied: 3, existing: 0, refused: 0 },
      organizations: { copied: 1, existing: 0, refused: 0 },
      teams: { copied: 1, existing: 0, refused: 0 },
      members: { copied: 2, existing: 0, refused: 0 },
      teamMembers: { copied: 1, existing: 0, refused: 0 },
      invitations: { copied: 1, existing: 0, refused: 0 },
    });
    expect(report.refused).toEqual([
      {
        collection: "users",
        row: 4,
        id: ids.twin.toHexString(),
        reason: "email alice@example.com appears twice in the source (differing in case)",
      },
    ]);
    const carol = await t.db.collection("users").findOne({ _id: ids.carol });
    expect(carol).toMatchObject({ email: "carol@example.com", banned: true, banReason: "spam" });
    const github = await t.db.collection("accounts").findOne({ providerId: "github" });
    expect(github).toMatchObject({ accountId: "gh-4242", accessToken: null, userId: ids.carol });
    expect(await t.db.collection("sessions").countDocuments()).toBe(0);
    expect((await checkDataInvariants(t.db)).filter((finding) => finding.count > 0)).toEqual([]);
    // Its members and its invitation each bumped the organization's listing version (a server
    // holding get-full-organization's listing of it reads the lists again).
    expect((await t.db.collection("organizations").findOne({}))?.listingVersion).toBe(2);
    // And the users theirs: no server answers admin list-users from a page held before the import.
    const users = await t.db
      .collection<{ _id: string; version: number }>("listingVersions")
      .findOne({ _id: "users" });
    expect(users?.version).toBeGreaterThan(0);
  });

  it("the original passwords sign in through auth.handler, and the hash becomes Tessera's at that sign-in", async () => {
    const browser = new TestBrowser(t.auth);
    expect((await signIn(browser, "alice@example.com", "wrong password here")).status).toBe(401);
    expect((await signIn(browser, "bob@example.com", "bób's pässword 42".normalize("NFD"))).status).toBe(200);
    const before = await t.db.collection("accounts").findOne({ userId: ids.alice, providerId: "credential" });
    expect(before?.password).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
    const res = await signIn(browser, "alice@example.com", "alice's long password");
    expect(res.status).toBe(200);
    const after = await t.db.collection("accounts").findOne({ userId: ids.alice, providerId: "credential" });
    expect(after?.password).toMatch(/^s1\$/);
    expect((await signIn(new TestBrowser(t.auth), "alice@example.com", "alice's long password")).status).toBe(
      200,
    );
  }, 60_000);

  it("a second import copies nothing", async () => {
    const report = await importAction(testRun(t.db.databaseName), {
      from: "better-auth",
      sourceUri: sourceUri(),
      sourceDb: source.databaseName,
    });
    for (const count of Object.values(report.counts)) expect(count.copied).toBe(0);
    expect(report.counts.users).toEqual({ copied: 0, existing: 3, refused: 1 });
    expect(await t.db.collection("members").countDocuments()).toBe(2);
    expect((await t.db.collection("organizations").findOne({}))?.listingVersion).toBe(2);
  });
});

describe("tessera import --from authjs", () => {
  it("copies users and OAuth accounts; an email-login account has no equivalent and is refused", async () => {
    const report = await importAction(testRun(t.db.databaseName), {
      from: "authjs",
      sourceUri: sourceUri(),
      sourceDb: authjs.databaseName,
    });
    expect(report.counts.users).toEqual({ copied: 1, existing: 0, refused: 0 });
    expect(report.counts.accounts).toEqual({ copied: 1, existing: 0, refused: 1 });
    expect(await t.db.collection("users").findOne({ email: "erin@example.com" })).toMatchObject({
      emailVerified: false,
      name: "Erin",
    });
  });

  it("a provider identity another Tessera user already holds is refused, not counted as there", async () => {
    const target = client.db(`import_held_${randomBytes(4).toString("hex")}`);
    const holder = new ObjectId();
    const heldId = importedAccountId("google", "g-1");
    await target.collection("accounts").insertOne({
      _id: heldId,
      userId: holder,
      providerId: "google",
      accountId: "g-1",
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    try {
      const report = await importAction(testRun(target.databaseName), {
        from: "authjs",
        sourceUri: sourceUri(),
        sourceDb: authjs.databaseName,
      });
      expect(report.counts.accounts).toEqual({ copied: 0, existing: 0, refused: 2 });
      expect(report.refused).toContainEqual({
        collection: "accounts",
        row: 1,
        id: heldId.toHexString(),
        reason: "already there, held by another Tessera user",
      });
      expect(await target.collection("accounts").find({}).toArray()).toEqual([
        expect.objectContaining({ _id: heldId, userId: holder }),
      ]);
    } finally {
      await target.dropDatabase();
    }
  });
});

describe("tessera import: rows the API would refuse", () => {
  const bad = {
    lookAlike: new ObjectId(),
    fullWidth: new ObjectId(),
    scriptImage: new ObjectId(),
    longName: new ObjectId(),
    good: new ObjectId(),
    scriptLogo: new ObjectId(),
    badSlug: new ObjectId(),
    goodOrg: new ObjectId(),
    emptyTeam: new ObjectId(),
    noRole: new ObjectId(),
    lookAlikeInvite: new ObjectId(),
  };
  let from: Db;
  let target: Db;

  beforeAll(async () => {
    from = client.db(`ba_bad_${randomBytes(4).toString("hex")}`);
    target = client.db(`import_bad_${randomBytes(4).toString("hex")}`);
    const now = new Date("2025-06-01T10:00:00Z");
    const user = (id: ObjectId, email: string, extra = {}) => ({
      _id: id,
      name: "Someone",
      email,
      emailVerified: true,
      image: null,
      createdAt: now,
      updatedAt: now,
      ...extra,
    });
    await from.collection("user").insertMany([
      user(bad.good, "grace@example.com", { image: "https://cdn.example.com/grace.png" }),
      // Cyrillic "а" (U+0430): looks like admin@example.com.
      user(bad.lookAlike, "\u0430dmin@example.com"),
      user(bad.scriptImage, "mallory@example.com", { image: "javascript:alert(document.cookie)" }),
      user(bad.longName, "long@example.com", { name: "n".repeat(300) }),
      // Fullwidth "ｅ" (U+FF45).
      user(bad.fullWidth, "\uff45ve@example.com"),
    ]);
    await from.collection("organization").insertMany([
      {
        _id: bad.goodOrg,
        name: "Good",
        slug: "good",
        logo: null,
        metadata: '{"plan":"pro"}',
        createdAt: now,
      },
      { _id: bad.scriptLogo, name: "Evil", slug: "evil", logo: "javascript:alert(1)", createdAt: now },
      { _id: bad.badSlug, name: "Spaces", slug: "bad slug!", logo: null, createdAt: now },
    ]);
    await from
      .collection("team")
      .insertOne({ _id: bad.emptyTeam, name: "   ", organizationId: bad.goodOrg, createdAt: now });
    await from.collection("member").insertMany([
      { _id: new ObjectId(), organizationId: bad.goodOrg, userId: bad.good, role: "owner", createdAt: now },
      { _id: bad.noRole, organizationId: bad.goodOrg, userId: bad.good, role: " , ", createdAt: now },
    ]);
    await from.collection("invitation").insertOne({
      _id: bad.lookAlikeInvite,
      organizationId: bad.goodOrg,
      email: "gr\u0430ce@example.com",
      role: "member",
      status: "pending",
      inviterId: bad.good,
      expiresAt: new Date(Date.now() + 86_400_000),
      createdAt: now,
    });
  });

  afterAll(async () => {
    await from.dropDatabase();
    await target.dropDatabase();
  });

  it("refuses each such row with its row number and the field the API refuses, and imports the rest", async () => {
    const report = await importAction(testRun(target.databaseName), {
      from: "better-auth",
      sourceUri: sourceUri(),
      sourceDb: from.databaseName,
    });
    const refusal = (collection: string, row: number, id: ObjectId, reason: RegExp) => ({
      collection,
      row,
      id: id.toHexString(),
      reason: expect.stringMatching(reason),
    });
    expect(report.refused).toEqual([
      refusal(
        "users",
        2,
        bad.lookAlike,
        /^email "\u0430dmin@example\.com" is refused by the API: not an address the API accepts \(printable ASCII only/,
      ),
      refusal(
        "users",
        3,
        bad.scriptImage,
        /^image "javascript:.*" is refused by the API: must be an http\(s\) URL or null$/,
      ),
      refusal("users", 4, bad.longName, /^name "n+…" is refused by the API: /),
      refusal("users", 5, bad.fullWidth, /^email "\uff45ve@example\.com" is refused by the API: /),
      refusal(
        "organizations",
        2,
        bad.scriptLogo,
        /^logo "javascript:alert\(1\)" is refused by the API: must be/,
      ),
      refusal("organizations", 3, bad.badSlug, /^slug "bad slug!" is refused by the API: /),
      refusal("teams", 1, bad.emptyTeam, /^name " {3}" is refused by the API: /),
      refusal("members", 2, bad.noRole, /^role " , " is refused by the API: at least one role$/),
      refusal(
        "invitations",
        1,
        bad.lookAlikeInvite,
        /^email "gr\u0430ce@example\.com" is refused by the API: /,
      ),
    ]);
    // None of them reached the database; the good rows did.
    const ids = (rows: { _id: unknown }[]) => rows.map((row) => String(row._id));
    expect(ids(await target.collection("users").find({}).toArray())).toEqual([bad.good.toHexString()]);
    expect(await target.collection("users").countDocuments({ image: /^javascript:/i })).toBe(0);
    expect(ids(await target.collection("organizations").find({}).toArray())).toEqual([
      bad.goodOrg.toHexString(),
    ]);
    expect(await target.collection("organizations").findOne({ _id: bad.goodOrg })).toMatchObject({
      metadata: '{"plan":"pro"}',
    });
    expect(await target.collection("teams").countDocuments()).toBe(0);
    expect(await target.collection("members").countDocuments({ _id: bad.noRole })).toBe(0);
    expect(await target.collection("invitations").countDocuments()).toBe(0);
    expect(await target.collection("emailClaims").countDocuments()).toBe(1);
  });

  it("the command lists each refused row with its number, and exits 4 (the help says what the codes mean)", async () => {
    await buildCli();
    const env = { MONGODB_URI: sourceUri(), TESSERA_SECRET: TEST_SECRET, TESSERA_OPERATOR: "tester" };
    const args = [
      "import",
      "--from",
      "better-auth",
      "--source-uri",
      sourceUri(),
      "--source-db",
      from.databaseName,
    ];
    const text = await runCli([...args, "--db", target.databaseName], { env });
    expect(text.code, text.stderr).toBe(4);
    expect(text.stdout).toContain(
      `refused users row 3 (${bad.scriptImage.toHexString()}): image "javascript:`,
    );
    expect(text.stdout).toContain(`refused organizations row 2 (${bad.scriptLogo.toHexString()}): logo`);
    const json = await runCli([...args, "--db", target.databaseName, "--json"], { env });
    expect(json.code).toBe(4);
    const report = JSON.parse(json.stdout) as { refused: { row: number }[] };
    expect(report.refused.map((row) => row.row)).toEqual([2, 3, 4, 5, 2, 3, 1, 2, 1]);
    const help = await runCli(["import", "--help"]);
    expect(help.stdout).toMatch(/4 some rows refused, each listed; every other row copied/);
    expect(await target.collection("users").countDocuments()).toBe(1);
  }, 120_000);
});
