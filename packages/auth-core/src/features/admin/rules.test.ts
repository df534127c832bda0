import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { listUsersQuery } from "../../contracts/admin-fields.ts";
import type { SessionDoc, UserDoc } from "../../db/documents.ts";
import { escapeRegex } from "../../db/regex.ts";
import { AWKWARD_TEXTS as AWKWARD } from "../../http/json-text.test.cases.ts";
import { isBanExpired } from "../users/ban.ts";
import { buildUserFilter, buildUserPage } from "./list-users-query.ts";
import {
  adminUserJson,
  areKnownRoles,
  banExpiry,
  isBanActive,
  normaliseRoleInput,
  toAdminSession,
  toAdminUser,
} from "./rules.ts";

const NOW = new Date("2026-01-01T00:00:00Z");
const past = new Date(NOW.getTime() - 1000);
const future = new Date(NOW.getTime() + 1000);

describe("bans", () => {
  it.each([
    [{}, false, false],
    [{ banned: false }, false, false],
    [{ banned: true }, true, false],
    [{ banned: true, banExpires: null }, true, false],
    [{ banned: true, banExpires: future }, true, false],
    [{ banned: true, banExpires: NOW }, false, true],
    [{ banned: true, banExpires: past }, false, true],
    [{ banned: false, banExpires: past }, false, false],
  ])("%j: active %s, expired %s", (user, active, expired) => {
    expect(isBanActive(user, NOW)).toBe(active);
    expect(isBanExpired(user, NOW)).toBe(expired);
  });

  it("a ban without a length is permanent; with one it ends that many seconds later", () => {
    expect(banExpiry(NOW, undefined)).toBeNull();
    expect(banExpiry(NOW, 60)).toEqual(new Date(NOW.getTime() + 60_000));
  });
});

describe("role input", () => {
  it.each([
    ["admin", ["admin"], true],
    [["admin", "user"], ["admin", "user"], true],
    [["admin", "admin"], ["admin"], true],
    [" admin ", ["admin"], true],
    ["superadmin", ["superadmin"], false],
    [["admin", "x"], ["admin", "x"], false],
    ["", [""], false],
    ["admin,user", ["admin,user"], false],
    ["__proto__", ["__proto__"], false],
  ] as const)("%j → %j, known %s", (input, names, known) => {
    expect(normaliseRoleInput(input)).toEqual(names);
    expect(areKnownRoles(normaliseRoleInput(input), { admin: {}, user: {} })).toBe(known);
  });

  it("a user without a stored role shows the default role and no ban", () => {
    const doc = { _id: new ObjectId(), email: "a@x.io", emailVerified: false, name: "A", image: null };
    const shown = toAdminUser({ ...doc, createdAt: NOW, updatedAt: NOW }, "user");
    expect(shown).toMatchObject({ role: "user", banned: false, banReason: null, banExpires: null });
  });
});

describe("list-users query", () => {
  const parse = (query: Record<string, unknown>) => listUsersQuery.parse(query);

  it("escapes every regex metacharacter, so input matches literally", () => {
    const nasty = [".", "*", "+", "?", "^", "$", "{", "}", "(", ")", "|", "[", "]", "\\"].join("");
    expect(new RegExp(escapeRegex(nasty)).test(nasty)).toBe(true);
    expect(new RegExp(`^${escapeRegex("a.c")}$`).test("abc")).toBe(false);
  });

  it.each([
    [{}, {}],
    [{ searchValue: "" }, {}],
    [{ searchValue: "Ada" }, { email: { $regex: "Ada", $options: "i" } }],
    [{ searchValue: "a.b", searchField: "name" }, { name: { $regex: "a\\.b", $options: "i" } }],
    [{ searchValue: "ad", searchOperator: "starts_with" }, { email: { $regex: "^ad", $options: "i" } }],
    [{ searchValue: ".io", searchOperator: "ends_with" }, { email: { $regex: "\\.io$", $options: "i" } }],
    [{ filterField: "banned", filterValue: "true" }, { banned: { $eq: true } }],
    [{ filterField: "banned", filterValue: "false" }, { banned: { $ne: true } }],
    [{ filterField: "banned", filterValue: "true", filterOperator: "ne" }, { banned: { $ne: true } }],
    // A member of the comma-separated list, regex-escaped (review finding 9).
    [{ filterField: "role", filterValue: "admin" }, { role: { $regex: /(^|,)\s*admin\s*(,|$)/ } }],
    [{ filterField: "role", filterValue: "a.b" }, { role: { $regex: /(^|,)\s*a\.b\s*(,|$)/ } }],
    [
      { filterField: "role", filterValue: "user" },
      { $or: [{ role: { $regex: /(^|,)\s*user\s*(,|$)/ } }, { role: { $exists: false } }] },
    ],
    [
      { filterField: "name", filterValue: "x", filterOperator: "contains" },
      { name: { $regex: "x", $options: "i" } },
    ],
    [
      { filterField: "createdAt", filterValue: "2026-01-01T00:00:00Z", filterOperator: "gte" },
      { createdAt: { $gte: NOW } },
    ],
    [
      { searchValue: "a", filterField: "emailVerified", filterValue: "true" },
      { $and: [{ email: { $regex: "a", $options: "i" } }, { emailVerified: { $eq: true } }] },
    ],
  ])("%j → %j", (query, filter) => {
    expect(buildUserFilter(parse(query), "user")).toEqual(filter);
  });

  it.each([
    [{ filterField: "password", filterValue: "x" }],
    [{ filterField: "email" }],
    [{ filterValue: "x" }],
    [{ filterField: "banned", filterValue: "yes" }],
    [{ filterField: "banned", filterValue: "true", filterOperator: "contains" }],
    [{ filterField: "email", filterValue: "x", filterOperator: "gt" }],
    [{ filterField: "createdAt", filterValue: "not a date", filterOperator: "gt" }],
    [{ filterField: "email", filterValue: "x", filterOperator: "$where" }],
    [{ sortBy: "password" }],
    [{ searchField: "role" }],
    [{ limit: "-1" }],
    [{ limit: "1e3" }],
    [{ offset: "abc" }],
    [{ searchValue: { $ne: null } }],
    [{ unknown: "1" }],
  ])("refuses %j", (query) => {
    expect(listUsersQuery.safeParse(query).success).toBe(false);
  });

  it.each([
    [{}, { sort: { createdAt: -1, _id: -1 }, limit: 100, offset: 0 }],
    [{ limit: "500" }, { sort: { createdAt: -1, _id: -1 }, limit: 100, offset: 0 }],
    [{ limit: "0" }, { sort: { createdAt: -1, _id: -1 }, limit: 1, offset: 0 }],
    [
      { limit: 5, offset: "10" },
      { sort: { createdAt: -1, _id: -1 }, limit: 5, offset: 10 },
    ],
    [
      { sortBy: "email", sortDirection: "asc" },
      { sort: { email: 1, _id: 1 }, limit: 100, offset: 0 },
    ],
  ])("page of %j → %j (limit capped at 100)", (query, page) => {
    expect(buildUserPage(parse(query))).toEqual(page);
  });
});

describe("an admin user's JSON text is the one JSON.stringify writes for its API shape", () => {
  const base: UserDoc = {
    _id: new ObjectId(),
    email: "ada@example.com",
    emailVerified: true,
    name: "Ada",
    image: null,
    createdAt: new Date("2026-03-04T05:06:07.089Z"),
    updatedAt: new Date("2026-03-05T05:06:07.000Z"),
  };
  const odd = (fields: Record<string, unknown>) => ({ ...base, ...fields }) as unknown as UserDoc;
  const cases: Array<[string, UserDoc]> = [
    ["plain, without role or ban fields", base],
    ["several roles, spaced", { ...base, role: " admin , support,," }],
    ["an empty role", { ...base, role: "" }],
    ["banned for good", { ...base, banned: true, banReason: "spam", banExpires: null }],
    ["banned until a date", { ...base, banned: true, banReason: null, banExpires: future }],
    ["a lifted ban", { ...base, banned: false, banReason: undefined, banExpires: undefined }],
    [
      "with an image, a language and a second factor",
      { ...base, image: 'https://x/a.png?q="1"', language: "SPA", twoFactorEnabled: true },
    ],
    ["an empty language and second factor off", { ...base, language: "", twoFactorEnabled: false }],
    ["invalid dates", { ...base, createdAt: new Date(Number.NaN), updatedAt: new Date(Number.NaN) }],
    [
      "missing fields (stored by hand)",
      odd({
        email: undefined,
        emailVerified: undefined,
        name: undefined,
        image: undefined,
        createdAt: undefined,
        updatedAt: undefined,
      }),
    ],
    [
      "a date stored as text, a truthy non-boolean ban",
      odd({ createdAt: "2026-01-01", banned: 1, banExpires: "soon" }),
    ],
    ...AWKWARD.map((text): [string, UserDoc] => [
      `text ${JSON.stringify(text)}`,
      { ...base, name: text, email: text, image: text, role: text, banReason: text, language: text },
    ]),
  ];
  it.each(cases)("%s", (_name, doc) => {
    for (const defaultRole of ["user", 'odd "role"'])
      expect(adminUserJson(doc, defaultRole)).toBe(JSON.stringify(toAdminUser(doc, defaultRole)));
  });
});

describe("an admin user as list-users and the user actions answer it (exact text)", () => {
  const id = new ObjectId("64b7f0a1c2d3e4f5a6b7c8da");
  const doc: UserDoc = {
    _id: id,
    email: "ada@example.com",
    emailVerified: true,
    name: "Ada",
    image: null,
    createdAt: new Date("2026-03-04T05:06:07.089Z"),
    updatedAt: new Date("2026-03-05T05:06:07.000Z"),
  };
  const head = `{"id":"${id}","email":"ada@example.com","emailVerified":true,"name":"Ada","image":null`;
  const dates = `"createdAt":"2026-03-04T05:06:07.089Z","updatedAt":"2026-03-05T05:06:07.000Z"`;
  it.each([
    [
      "never banned, no role stored: the default role",
      {},
      `${head},${dates},"role":"user","banned":false,"banReason":null,"banExpires":null}`,
    ],
    [
      "banned until a date, several roles, a language and a second factor",
      {
        role: "admin, support",
        banned: true,
        banReason: "spam",
        banExpires: future,
        language: "GERMAN",
        twoFactorEnabled: true,
      },
      `${head},"language":"GERMAN","twoFactorEnabled":true,${dates},"role":"admin,support",` +
        `"banned":true,"banReason":"spam","banExpires":"2026-01-01T00:00:01.000Z"}`,
    ],
    [
      "a lifted ban",
      { role: "admin", banned: false, banReason: null, banExpires: null },
      `${head},${dates},"role":"admin","banned":false,"banReason":null,"banExpires":null}`,
    ],
  ])("%s", (_name, fields, json) => {
    const user = { ...doc, ...fields };
    expect(adminUserJson(user, "user")).toBe(json);
    expect(JSON.stringify(toAdminUser(user, "user"))).toBe(json);
  });
});

describe("a session as the admin area lists it", () => {
  const stored: SessionDoc = {
    _id: new ObjectId("65a000000000000000000001"),
    userId: new ObjectId("65a000000000000000000002"),
    token: "t".repeat(32),
    expiresAt: future,
    createdAt: NOW,
    updatedAt: NOW,
    ipAddress: "198.51.100.5",
    userAgent: null,
    activeOrganizationId: null,
    dontRemember: false,
  };
  const common =
    '{"id":"65a000000000000000000001","userId":"65a000000000000000000002",' +
    '"expiresAt":"2026-01-01T00:00:01.000Z","createdAt":"2026-01-01T00:00:00.000Z",' +
    '"updatedAt":"2026-01-01T00:00:00.000Z","ipAddress":"198.51.100.5","userAgent":null,' +
    '"activeOrganizationId":null';

  it.each<[string, Partial<SessionDoc>, string]>([
    ["the user's own: impersonatedBy null", {}, ',"impersonatedBy":null}'],
    ["the user's own, with activeTeamId null: left out", { activeTeamId: null }, ',"impersonatedBy":null}'],
    [
      // One key order for every row, the schema's: impersonatedBy keeps the session's place for it.
      "the user's own with a team: impersonatedBy null, then the team",
      { activeTeamId: "65a0000000000000000000bb" },
      ',"impersonatedBy":null,"activeTeamId":"65a0000000000000000000bb"}',
    ],
    [
      "an impersonation with a team: the admin's id, then the team",
      { impersonatedBy: new ObjectId("65a0000000000000000000ad"), activeTeamId: "65a0000000000000000000bb" },
      ',"impersonatedBy":"65a0000000000000000000ad","activeTeamId":"65a0000000000000000000bb"}',
    ],
  ])("never carries the token; %s", (_name, overrides, end) => {
    expect(JSON.stringify(toAdminSession({ ...stored, ...overrides }))).toBe(common + end);
  });
});
