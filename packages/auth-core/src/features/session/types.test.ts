import { describe, expect, it } from "vitest";
import type { SessionDoc, UserDoc } from "../../db/documents.ts";
import { ObjectId } from "../../db/ids.ts";
import { toSession, toUser } from "./types.ts";

const id = ObjectId.createFromHexString("64b7f0a1c2d3e4f5a6b7c8d9");
const userId = ObjectId.createFromHexString("64b7f0a1c2d3e4f5a6b7c8da");
const adminId = ObjectId.createFromHexString("64b7f0a1c2d3e4f5a6b7c8db");
const at = new Date("2026-03-04T05:06:07.089Z");

const stored: SessionDoc = {
  _id: id,
  userId,
  token: "a".repeat(32),
  expiresAt: at,
  createdAt: at,
  updatedAt: at,
  ipAddress: "203.0.113.9",
  userAgent: null,
  activeOrganizationId: null,
  dontRemember: true,
};

const common =
  `"id":"${id}","userId":"${userId}","token":"${"a".repeat(32)}","expiresAt":"2026-03-04T05:06:07.089Z",` +
  `"createdAt":"2026-03-04T05:06:07.089Z","updatedAt":"2026-03-04T05:06:07.089Z","ipAddress":"203.0.113.9",` +
  `"userAgent":null`;

describe("a session as the API answers it", () => {
  it.each([
    [
      "an ordinary session: no impersonatedBy, no activeTeamId",
      {},
      `{${common},"activeOrganizationId":null}`,
    ],
    [
      "a session whose team was cleared: activeTeamId null is left out",
      { activeOrganizationId: "o1", activeTeamId: null },
      `{${common},"activeOrganizationId":"o1"}`,
    ],
    [
      "an impersonation session with an active team: both, in that order",
      { activeOrganizationId: "o1", activeTeamId: "t1", impersonatedBy: adminId },
      `{${common},"activeOrganizationId":"o1","impersonatedBy":"${adminId}","activeTeamId":"t1"}`,
    ],
  ])("%s", (_name, fields, json) => {
    expect(JSON.stringify(toSession({ ...stored, ...fields }))).toBe(json);
  });
});

describe("a user as the API answers it (exact text)", () => {
  const user: UserDoc = {
    _id: userId,
    email: "ada@example.com",
    emailVerified: false,
    name: "Ada",
    image: null,
    createdAt: at,
    updatedAt: at,
  };
  const dates = `"createdAt":"2026-03-04T05:06:07.089Z","updatedAt":"2026-03-04T05:06:07.089Z"`;
  const head = `"id":"${userId}","email":"ada@example.com","emailVerified":false,"name":"Ada"`;
  it.each([
    ["no language, no second factor: neither key", {}, `{${head},"image":null,${dates}}`],
    [
      "a language and a second factor: both, before the dates",
      { image: "https://x/a.png", language: "SPA", twoFactorEnabled: true },
      `{${head},"image":"https://x/a.png","language":"SPA","twoFactorEnabled":true,${dates}}`,
    ],
    [
      "an empty language, a second factor off, role and ban fields: none of them",
      {
        language: "",
        twoFactorEnabled: false,
        role: "admin",
        banned: true,
        banReason: "x",
        banExpires: null,
      },
      `{${head},"image":null,${dates}}`,
    ],
  ])("%s", (_name, fields, json) => {
    expect(JSON.stringify(toUser({ ...user, ...fields }))).toBe(json);
  });
});
