import { describe, expect, it } from "vitest";
import type { ApiKeyDoc } from "../../db/documents.ts";
import { ObjectId } from "../../db/ids.ts";
import { toApiKey } from "./types.ts";

const id = ObjectId.createFromHexString("64b7f0a1c2d3e4f5a6b7c8d9");
const userId = ObjectId.createFromHexString("64b7f0a1c2d3e4f5a6b7c8da");
const at = new Date("2026-03-04T05:06:07.089Z");

/** A stored key with every field the API shows set, and the ones it never shows. */
const stored: ApiKeyDoc = {
  _id: id,
  userId,
  name: "ci",
  prefix: "tsr_",
  start: "tsr_ab",
  keyHash: "hash-never-shown",
  enabled: true,
  expiresAt: at,
  remaining: 100,
  refillAmount: 100,
  refillInterval: 3_600_000,
  usageResetAt: at,
  rateLimitEnabled: true,
  rateLimitTimeWindow: 86_400_000,
  rateLimitMax: 10,
  permissions: { files: ["read", "write"] },
  metadata: '{"team":"ops","tags":["a"]}',
  createdFromSession: true,
  createdAt: at,
  updatedAt: at,
};

describe("an API key as the API answers it", () => {
  it("is the stored key in Better Auth's key order, with the remaining uses handed over and nothing secret", () => {
    expect(JSON.stringify(toApiKey(stored, 7))).toBe(
      `{"id":"${id}","userId":"${userId}","name":"ci","prefix":"tsr_","start":"tsr_ab","enabled":true,` +
        `"expiresAt":"2026-03-04T05:06:07.089Z","remaining":7,"refillAmount":100,"refillInterval":3600000,` +
        `"rateLimitEnabled":true,"rateLimitTimeWindow":86400000,"rateLimitMax":10,` +
        `"permissions":{"files":["read","write"]},"metadata":{"team":"ops","tags":["a"]},` +
        `"createdAt":"2026-03-04T05:06:07.089Z","updatedAt":"2026-03-04T05:06:07.089Z"}`,
    );
  });

  it("answers null for each unset field and for unlimited uses", () => {
    const unset = {
      name: null,
      prefix: null,
      start: null,
      expiresAt: null,
      remaining: null,
      refillAmount: null,
      refillInterval: null,
      permissions: null,
      metadata: null,
    };
    expect(toApiKey({ ...stored, ...unset }, null)).toMatchObject(unset);
  });
});
