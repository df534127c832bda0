import { describe, expect, it } from "vitest";
import { ObjectId } from "../../../db/ids.ts";
import { parsePatchPath } from "./parse.ts";
import { ScimFilterError } from "./tokenize.ts";
import { type TranslatedFilter, translateFilter } from "./translate.ts";

/** RFC 7644 §3.4.2.2 filters → MongoDB filters over the account (`user`) and the directory's link (`link`). */

const user = (filter: Record<string, unknown>): TranslatedFilter => ({ user: filter, link: null });
const link = (filter: Record<string, unknown>): TranslatedFilter => ({ user: null, link: filter });
const ci = (source: string) => ({ $regex: source, $options: "i" });
const ID = "6749b1f0a1b2c3d4e5f60718";

const VALID: readonly [string, TranslatedFilter][] = [
  // The address: stored lower-cased, so compared lower-cased and exactly (RFC 7643: caseExact false).
  ['emails.value eq "Ada@Example.com"', user({ email: "ada@example.com" })],
  ['USERNAME EQ "Ada@example.com"', link({ userNameKey: "ada@example.com" })],
  ['emails.value Eq "ada@example.com"', user({ email: "ada@example.com" })],
  // userName: the directory's record keeps it lower-cased beside the name as sent.
  [
    'urn:ietf:params:scim:schemas:core:2.0:User:userName eq "A.Lovelace"',
    link({ userNameKey: "a.lovelace" }),
  ],
  ['userName sw "Ada"', link({ userNameKey: { $regex: "^ada" } })],
  ['userName eq "a" and active eq true', link({ $and: [{ userNameKey: "a" }, { active: true }] })],
  ['emails.value ne "a@b.test"', user({ email: { $ne: "a@b.test" } })],
  ['emails.value co "@Example"', user({ email: { $regex: "@example" } })],
  ['emails.value sw "ada"', user({ email: { $regex: "^ada" } })],
  ['emails.value ew ".test"', user({ email: { $regex: "\\.test$" } })],
  ['emails.value gt "m"', user({ email: { $gt: "m" } })],
  ['emails.value ge "m"', user({ email: { $gte: "m" } })],
  ['emails.value lt "m"', user({ email: { $lt: "m" } })],
  ['emails.value le "m"', user({ email: { $lte: "m" } })],
  ["emails.value pr", user({ email: { $exists: true, $nin: [null, ""] } })],
  ["emails.value eq null", user({ email: { $in: [null, ""] } })],
  ['emails.value eq "a@b.test"', user({ email: "a@b.test" })],
  ['emails eq "a@b.test"', user({ email: "a@b.test" })],
  ['emails co "example.com"', user({ email: { $regex: "example\\.com" } })],
  ['emails[type eq "work"]', { user: null, link: null }],
  ['emails[type eq "work" and value co "@acme"]', user({ email: { $regex: "@acme" } })],
  ['emails[TYPE EQ "WORK" and primary eq true]', { user: null, link: null }],
  ['emails[type eq "home"]', link({ _id: { $in: [] } })],
  ['emails[value ew "@acme.test"]', user({ email: { $regex: "@acme\\.test$" } })],
  ['emails[not (type eq "home")]', { user: null, link: null }],
  // Case-insensitive names: an anchored, escaped literal.
  ['displayName eq "Ada Lovelace"', user({ name: ci("^Ada Lovelace$") })],
  ['displayName ne "Ada"', user({ name: { $not: ci("^Ada$") } })],
  ['name.formatted co "Love"', user({ name: ci("Love") })],
  ['name.givenName eq "Ada"', link({ givenName: ci("^Ada$") })],
  ['name.familyName sw "Love"', link({ familyName: ci("^Love") })],
  ["name.familyName pr", link({ familyName: { $exists: true, $nin: [null, ""] } })],
  // externalId is caseExact (RFC 7643 §3.1).
  ['externalId eq "00uA1"', link({ externalId: "00uA1" })],
  ['externalId co "A1"', link({ externalId: { $regex: "A1" } })],
  ["active eq true", link({ active: true })],
  ["active eq false", link({ active: false })],
  ["active ne true", link({ active: { $ne: true } })],
  ["active eq TRUE", link({ active: true })],
  ["active pr", link({ active: { $exists: true, $ne: null } })],
  [`id eq "${ID}"`, link({ userId: new ObjectId(ID) })],
  ['id eq "not-an-id"', link({ userId: { $in: [] } })],
  [`id ne "${ID}"`, link({ userId: { $ne: new ObjectId(ID) } })],
  ['meta.created gt "2026-01-01T00:00:00Z"', link({ createdAt: { $gt: new Date("2026-01-01T00:00:00Z") } })],
  [
    'meta.lastModified le "2026-11-29T10:00:00.500+01:00"',
    link({ updatedAt: { $lte: new Date("2026-11-29T09:00:00.500Z") } }),
  ],
  // Logic: and binds tighter than or; parentheses; not.
  [
    'emails.value eq "a@b.test" or emails.value eq "c@d.test"',
    user({ $or: [{ email: "a@b.test" }, { email: "c@d.test" }] }),
  ],
  [
    'emails.value sw "a" and emails.value ew ".test" and emails.value co "@"',
    user({
      $and: [{ email: { $regex: "^a" } }, { email: { $regex: "\\.test$" } }, { email: { $regex: "@" } }],
    }),
  ],
  [
    'emails.value eq "a" or emails.value eq "b" and displayName eq "c"',
    user({ $or: [{ email: "a" }, { $and: [{ email: "b" }, { name: ci("^c$") }] }] }),
  ],
  [
    '(emails.value eq "a" or emails.value eq "b") and displayName eq "c"',
    user({ $and: [{ $or: [{ email: "a" }, { email: "b" }] }, { name: ci("^c$") }] }),
  ],
  ['not (emails.value eq "a")', user({ $nor: [{ email: "a" }] })],
  ['NOT(emails.value eq "a")', user({ $nor: [{ email: "a" }] })],
  ["not (active eq true)", link({ $nor: [{ active: true }] })],
  ['((((emails.value eq "a"))))', user({ email: "a" })],
  // A conjunction of both sides is split: the link half and the account half.
  ['emails.value eq "a@b.test" and active eq true', { user: { email: "a@b.test" }, link: { active: true } }],
  [
    'active eq true and externalId eq "x" and emails.value co "@acme"',
    { user: { email: { $regex: "@acme" } }, link: { $and: [{ active: true }, { externalId: "x" }] } },
  ],
  // Literals: JSON escapes decoded, then escaped for the regex.
  ['displayName eq "Ada \\"The Countess\\""', user({ name: ci('^Ada "The Countess"$') })],
  ['displayName eq "caf\\u00e9"', user({ name: ci("^café$") })],
  ['displayName co "a\\\\b"', user({ name: ci("a\\\\b") })],
  // Injection attempts become literals that match only themselves.
  ['emails.value co ".*"', user({ email: { $regex: "\\.\\*" } })],
  ['displayName sw "^(a+)+$"', user({ name: ci("^\\^\\(a\\+\\)\\+\\$") })],
  ['emails.value eq "{\\"$ne\\": null}"', user({ email: '{"$ne": null}' })],
  ['displayName co "$where"', user({ name: ci("\\$where") })],
  ['displayName co "[a-z]|x"', user({ name: ci("\\[a-z\\]\\|x") })],
];

const INVALID: readonly [string, string][] = [
  ["", "The filter is empty"],
  ["   ", "The filter is empty"],
  ['$where eq "1"', "Invalid attribute '$where' at position 0"],
  ['password eq "x"', "Unknown or unfilterable attribute 'password'"],
  ['emails.display eq "x"', "Unknown or unfilterable attribute 'emails.display'"],
  ['urn:example:Other:userName eq "x"', "Unknown or unfilterable attribute 'username'"],
  ['userName xx "a"', "Unknown operator 'xx' at position 9"],
  ["userName eq", "A value was expected after 'eq'"],
  ["userName eq ada", "Invalid value 'ada' at position 12: quote strings"],
  ['userName eq "a', "Unterminated string starting at position 12"],
  ['userName eq "\\x41"', "Invalid string literal at position 12"],
  ['userName eq "a" and', "The filter ends where an expression was expected"],
  ['userName eq "a" userName eq "b"', "Unexpected 'userName' at position 16"],
  ['(userName eq "a"', "')' expected at the end"],
  ['userName eq "a")', "Unexpected ')' at position 15"],
  ['not userName eq "a"', "'not' must be followed by '(' at position 0"],
  ['emails[type eq "work"', "']' expected at the end"],
  ['emails[value co "x"].value eq "y"', "Unexpected '.value' at position 20"],
  ['emails[emails[type eq "work"]]', "Value filters cannot be nested"],
  ['userName eq "a" ; drop', "Unexpected character ';' at position 16"],
  ['userName eq "a" || true', "Unexpected character '|' at position 16"],
  ['active eq "true"', "'active' takes 'eq' or 'ne' with true or false"],
  ["active co true", "'active' takes 'eq' or 'ne' with true or false"],
  ["userName eq 42", "A string value is expected, not 42"],
  ["userName gt null", "'gt' cannot compare with null"],
  ['meta.created gt "yesterday"', 'A date is expected (e.g. "2026-11-29T10:00:00Z"), not "yesterday"'],
  ['meta.created co "2026"', "'co' does not apply to a date"],
  ['id gt "a"', "'id' takes 'eq' or 'ne' with a string"],
  ['emails[primary eq "yes"]', `'eq' with "yes" does not apply to a boolean attribute`],
  ["userName eq 01", "Invalid number at position 12"],
  [
    'emails.value eq "a" or active eq true',
    "This filter combines account and directory attributes under 'or' or 'not', which is not supported",
  ],
  [
    'not (emails.value eq "a" and active eq true)',
    "This filter combines account and directory attributes under 'or' or 'not', which is not supported",
  ],
  [`${"(".repeat(13)}userName pr${")".repeat(13)}`, "The filter nests deeper than 12 levels"],
  [`${"not (".repeat(13)}userName pr${")".repeat(13)}`, "The filter nests deeper than 12 levels"],
  [`userName eq "${"a".repeat(1020)}"`, "The filter is longer than 1024 characters"],
  ['name.givenName.first eq "a"', "Invalid attribute 'name.givenName.first' at position 0"],
  ['and eq "x"', "An attribute was expected at position 0, not 'and'"],
];

describe("SCIM filters (RFC 7644 §3.4.2.2)", () => {
  it("has a table of at least 60 filters", () => {
    expect(VALID.length + INVALID.length).toBeGreaterThanOrEqual(60);
  });

  it.each(VALID)("%s", (filter, expected) => {
    expect(translateFilter(filter)).toEqual(expected);
  });

  it.each(INVALID)("refuses %s", (filter, message) => {
    let error: unknown = null;
    try {
      translateFilter(filter);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ScimFilterError);
    expect((error as Error).message).toBe(message);
  });

  it("a value of every shape stays a value: no key of a translated filter comes from the input", () => {
    const keys = (value: unknown): string[] =>
      value && typeof value === "object" && !(value instanceof Date) && !(value instanceof ObjectId)
        ? Object.entries(value).flatMap(([key, inner]) => [key, ...keys(inner)])
        : [];
    const allowed = new Set([
      "user",
      "link",
      "email",
      "userNameKey",
      "name",
      "givenName",
      "familyName",
      "externalId",
      "active",
      "userId",
      "createdAt",
      "updatedAt",
      "_id",
      "$and",
      "$or",
      "$nor",
      "$regex",
      "$options",
      "$not",
      "$ne",
      "$in",
      "$nin",
      "$exists",
      "$gt",
      "$gte",
      "$lt",
      "$lte",
      "0",
      "1",
      "2",
    ]);
    for (const [filter] of VALID)
      for (const key of keys(translateFilter(filter))) expect(allowed).toContain(key);
  });
});

describe("PATCH paths (RFC 7644 §3.5.2)", () => {
  it("reads an attribute, a sub-attribute and a value path with its sub-attribute", () => {
    expect(parsePatchPath("active")).toEqual({
      path: { schema: null, attribute: "active", sub: null },
      filter: null,
      sub: null,
    });
    expect(parsePatchPath("name.givenName").path).toEqual({
      schema: null,
      attribute: "name",
      sub: "givenname",
    });
    expect(parsePatchPath('emails[type eq "work"].value')).toEqual({
      path: { schema: null, attribute: "emails", sub: null },
      filter: {
        kind: "compare",
        path: { schema: null, attribute: "type", sub: null },
        operator: "eq",
        value: "work",
      },
      sub: "value",
    });
  });

  it("refuses what is not a path", () => {
    expect(() => parsePatchPath('emails[type eq "work"] x')).toThrow("Unexpected 'x' at position 23");
    expect(() => parsePatchPath("eq")).toThrow("An attribute was expected at position 0, not 'eq'");
  });
});
