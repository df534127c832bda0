import { describe, expect, it } from "vitest";
import { createRouter, type Routable } from "./router.ts";

/**
 * The exact-path lookup in front of the route scan (router.ts) must choose what the scan chooses:
 * these are the cases where a static route exists but must not win, or where two could.
 */
const endpoint = (name: string, path: string, method: Routable["method"]): Routable & { name: string } => ({
  name,
  path,
  method,
});

describe("createRouter exact paths", () => {
  const route = createRouter([
    endpoint("static-post", "/item/new", "POST"),
    endpoint("param-get", "/item/:id", "GET"),
    endpoint("first", "/twice", "GET"),
    endpoint("second", "/twice", ["GET", "POST"]),
    endpoint("root", "/", "GET"),
  ]);

  it("falls through to a parameter route when the static route does not take the method", () => {
    expect(route("GET", "/item/new")).toMatchObject({
      kind: "found",
      match: { endpoint: { name: "param-get" }, params: { id: "new" } },
    });
    expect(route("POST", "/item/new")).toMatchObject({
      kind: "found",
      match: { endpoint: { name: "static-post" } },
    });
  });

  it("keeps declaration order between two static routes of one path", () => {
    expect(route("GET", "/twice")).toMatchObject({ kind: "found", match: { endpoint: { name: "first" } } });
    expect(route("POST", "/twice")).toMatchObject({ kind: "found", match: { endpoint: { name: "second" } } });
  });

  it("matches no alias of an exact path, and no route declared without segments", () => {
    for (const path of ["/twice/", "//twice", "/twice//", "/", "/TWICE"]) {
      expect(route("GET", path)).toEqual({ kind: "not-found" });
    }
  });
});
