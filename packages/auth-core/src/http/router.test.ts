import { describe, expect, it } from "vitest";
import { createRouter, type Routable } from "./router.ts";

const endpoint = (path: string, method: Routable["method"]): Routable & { name: string } => ({
  name: path,
  path,
  method,
});

const route = createRouter([
  endpoint("/reset-password/:token", "GET"),
  endpoint("/reset-password", "POST"),
  endpoint("/callback/:id", ["GET", "POST"]),
  endpoint("/ok", "GET"),
]);

describe("createRouter", () => {
  it("matches static segments before parameters and decodes parameters", () => {
    expect(route("POST", "/reset-password")).toMatchObject({ kind: "found", match: { params: {} } });
    expect(route("GET", "/reset-password/a%20b")).toMatchObject({
      kind: "found",
      match: { endpoint: { path: "/reset-password/:token" }, params: { token: "a b" } },
    });
    expect(route("POST", "/callback/github")).toMatchObject({
      kind: "found",
      match: { params: { id: "github" } },
    });
  });

  it("answers method-not-allowed with the allowed methods", () => {
    expect(route("POST", "/ok")).toEqual({ kind: "method-not-allowed", allow: ["GET"] });
    expect(route("GET", "/reset-password")).toEqual({ kind: "method-not-allowed", allow: ["POST"] });
  });

  it.each([
    "/",
    "",
    "ok",
    "//ok",
    "/ok/",
    "/OK",
    "/ok/x",
    "/reset-password//",
    "//reset-password/x",
    "/callback/",
    "/reset-password/%E0%A4%A",
  ])("finds no route for %j (no aliases, no undecodable parameter)", (path) => {
    expect(route("GET", path)).toEqual({ kind: "not-found" });
  });
});
