import { describe, expect, it } from "vitest";
import { EVENT_TYPES } from "../contracts/events.ts";
import { createOpenApiDocument } from "./document.ts";

const document = createOpenApiDocument({
  contracts: [],
  basePath: "/api/auth",
  origin: "https://auth.example.com",
  sessionCookie: "tessera.session_token",
  apiKeyHeader: "x-api-key",
  twoFactorCookie: "tessera.two_factor",
  title: "Test API",
});

describe("the OpenAPI document's webhooks", () => {
  it("has one operation per event type of the catalogue, its body the delivered event", () => {
    const webhooks = document.webhooks as Record<string, { post: Record<string, unknown> }>;
    expect(Object.keys(webhooks)).toEqual(EVENT_TYPES);
    const body = webhooks["member.added"]!.post.requestBody as {
      content: { "application/json": { schema: Record<string, unknown> } };
    };
    const schema = body.content["application/json"].schema as {
      properties: Record<string, Record<string, unknown>>;
      required: string[];
    };
    expect(schema.properties.type).toEqual({ type: "string", const: "member.added" });
    expect(schema.properties.data).toMatchObject({
      properties: {
        memberId: { type: "string" },
        organizationId: { type: "string" },
        userId: { type: "string" },
        role: { type: "string" },
      },
      required: ["memberId", "organizationId", "userId", "role"],
      additionalProperties: false,
    });
    expect(schema.required).toEqual(["id", "type", "createdAt", "organizationId", "userId", "data"]);
  });
});
