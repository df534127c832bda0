import { beforeEach, describe, expect, it } from "vitest";
import { signUp, TestBrowser } from "#test/browser.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";
import { expectCatalogueError, PASSWORD, snapshotDatabase } from "./helpers.ts";

/**
 * Matrix B: email canonicalisation. Emails are trimmed and lower-cased and
 * must be plain ASCII addr-specs. Whatever is accepted maps to exactly one stored address; whatever
 * is refused is refused the same way on sign-up and sign-in; nothing ever makes a second account
 * for an address that already has one.
 */
const { t, openAuth } = useTestAuthPerTest();
let adaId: string;
beforeEach(async () => {
  await openAuth();
  const res = await signUp(new TestBrowser(t.auth), { email: "ada@example.com", password: PASSWORD });
  adaId = res.body.user.id;
});

const signUpAs = (email: string) =>
  new TestBrowser(t.auth).post<{ user: { id: string; email: string } }>("/sign-up/email", {
    name: "Someone",
    email,
    password: PASSWORD,
  });
const signInAs = (email: string) =>
  new TestBrowser(t.auth).post<{ user: { id: string; email: string } }>("/sign-in/email", {
    email,
    password: PASSWORD,
  });

describe("variants of an existing address are the same account", () => {
  it.each([
    "ADA@EXAMPLE.COM",
    "Ada@Example.Com",
    " ada@example.com ",
    "\tada@example.com\n",
    "ada@example.com\r\n",
    "\u00a0ada@example.com\u00a0",
    "\ufeffada@example.com",
  ])("%j signs in as ada and cannot sign up again", async (variant) => {
    const signIn = await signInAs(variant);
    expect(signIn.status).toBe(200);
    expect(signIn.body.user).toMatchObject({ id: adaId, email: "ada@example.com" });
    const before = await snapshotDatabase(t.db);
    const again = await signUpAs(variant);
    expectCatalogueError(again, 422, "USER_ALREADY_EXISTS", "User already exists");
    expect(await snapshotDatabase(t.db)).toBe(before);
  });
});

describe("look-alikes and malformed addresses are refused everywhere", () => {
  it.each([
    ["fullwidth letters", "ａｄａ@example.com"],
    ["fullwidth at sign", "ada＠example.com"],
    ["Cyrillic а in the local part", "аda@example.com"],
    ["Cyrillic а in the domain", "ada@exаmple.com"],
    ["dotless ı", "adı@example.com"],
    ["dotted capital İ", "ADİ@example.com"],
    ["unicode (IDN) domain", "ada@éxample.com"],
    ["no TLD", "ada@example"],
    ["no domain", "ada@"],
    ["trailing dot", "ada@example.com."],
    ["double dot", "a..da@example.com"],
    ["two at signs", "ada@@example.com"],
    ["quoted local part", '"ada"@example.com'],
    ["quoted local part hiding an address", '"attacker@evil.com"@example.com'],
    ["comment", "ada@example.com(evil@x.io)"],
    ["display name", "Ada <ada@example.com>"],
    ["comma list", "ada@example.com,evil@x.io"],
    ["semicolon list", "ada@example.com;evil@x.io"],
    ["inner space", "ada @example.com"],
    ["NUL byte", "ada@example.com\u0000"],
    ["NUL byte inside", "ada\u0000@example.com"],
    ["CRLF header injection", "ada@example.com\r\nBcc: evil@x.io"],
    ["IP literal", "ada@[127.0.0.1]"],
    ["longer than 254 characters", `${"a".repeat(60)}@${"b".repeat(190)}.example.com`],
    ["longer than 320 characters", `${"a".repeat(300)}@example.com`],
    ["a 65-character local part (RFC 5321: at most 64)", `${"a".repeat(65)}@example.com`],
    ["Kelvin sign, which lower-cases to ASCII k", "\u212Aate@example.com"],
  ])("refuses %s (%j) on sign-up and sign-in with Invalid email", async (_name, variant) => {
    const before = await snapshotDatabase(t.db);
    const up = await signUpAs(variant);
    expectCatalogueError(up, 400, "INVALID_EMAIL", "Invalid email");
    const inn = await signInAs(variant);
    expectCatalogueError(inn, 400, "INVALID_EMAIL", "Invalid email");
    expect(await snapshotDatabase(t.db)).toBe(before);
  });

  it("treats a punycode domain as the different domain it is", async () => {
    const res = await signUpAs("ada@xn--xample-9ua.com");
    expect(res.status).toBe(200);
    expect(res.body.user.email).toBe("ada@xn--xample-9ua.com");
    expect(res.body.user.id).not.toBe(adaId);
    expect(await t.db.collection("users").countDocuments()).toBe(2);
  });

  it("never creates a second account through a case-mapping collision (Kelvin sign)", async () => {
    await signUp(new TestBrowser(t.auth), { email: "kate@example.com", password: PASSWORD });
    const before = await snapshotDatabase(t.db);
    // U+212A lower-cases to ASCII "k": refused before lower-casing, never the same or a new account.
    const res = await signUpAs("\u212Aate@example.com");
    expectCatalogueError(res, 400, "INVALID_EMAIL", "Invalid email");
    expect(await snapshotDatabase(t.db)).toBe(before);
    expect(await t.db.collection("users").countDocuments({ email: { $regex: "ate@example\\.com$" } })).toBe(
      1,
    );
  });
});

describe("a 64-character local part is the longest accepted", () => {
  it("signs up with exactly 64 characters before the at sign", async () => {
    const res = await signUpAs(`${"b".repeat(64)}@example.com`);
    expect(res.status).toBe(200);
  });
});

describe("concurrent sign-ups of one address (M1)", () => {
  it("create exactly one user and one credential account; the others get 422", async () => {
    const variants = ["bob@example.com", "BOB@example.com", " Bob@Example.com", "bob@EXAMPLE.COM"];
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => signUpAs(variants[i % variants.length]!)),
    );
    const statuses = results.map((res) => res.status).sort();
    expect(statuses).toEqual([200, ...Array(11).fill(422)]);
    const users = await t.db.collection("users").find({ email: "bob@example.com" }).toArray();
    expect(users).toHaveLength(1);
    expect(await t.db.collection("accounts").countDocuments({ userId: users[0]!._id })).toBe(1);
    // No orphan: every account belongs to a user.
    const accounts = await t.db.collection("accounts").find({}).toArray();
    const userIds = new Set((await t.db.collection("users").find({}).toArray()).map((u) => String(u._id)));
    expect(accounts.every((account) => userIds.has(String(account.userId)))).toBe(true);
  });
});
