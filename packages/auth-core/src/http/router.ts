import type { AnyEndpoint } from "./define-endpoint.ts";

/** What the router reads of an endpoint. */
export type Routable = Pick<AnyEndpoint, "method" | "path">;

interface Route<E extends Routable> {
  endpoint: E;
  methods: readonly string[];
  segments: string[];
}

interface RouteMatch<E extends Routable = AnyEndpoint> {
  endpoint: E;
  params: Record<string, string>;
}

export type RouteLookup<E extends Routable = AnyEndpoint> =
  | { kind: "found"; match: RouteMatch<E> }
  | { kind: "method-not-allowed"; allow: string[] }
  | { kind: "not-found" };

/**
 * Static segments beat `:param` segments, so `/reset-password` never matches `/reset-password/:token`.
 * A path is matched as sent: an empty segment (`//sign-in/email`, `/sign-in/email/`) is no route,
 * so no alias of a path can slip past its rate-limit rule or a check keyed on the path
 * (GHSA-x732-6j76-qmhm).
 */
export function createRouter<E extends Routable>(
  endpoints: readonly E[],
): (method: string, path: string) => RouteLookup<E> {
  const routes: Route<E>[] = endpoints.map((endpoint) => ({
    endpoint,
    methods: typeof endpoint.method === "string" ? [endpoint.method] : endpoint.method,
    segments: endpoint.path.split("/").filter(Boolean),
  }));
  // Exact paths of parameterless routes, in declaration order: the common case is one Map lookup.
  const staticRoutes = new Map<string, Route<E>[]>();
  for (const route of routes) {
    // No segments matches no request path (see below); a `:param` segment is not exact.
    if (route.segments.length === 0 || route.segments.some((segment) => segment.startsWith(":"))) continue;
    const key = `/${route.segments.join("/")}`;
    staticRoutes.set(key, [...(staticRoutes.get(key) ?? []), route]);
  }
  // The answer for each exact path and method, made once: a static hit allocates nothing. Its
  // params object is frozen, since every request of the route shares it.
  const staticLookups = new Map<string, Map<string, RouteLookup<E>>>();
  for (const [key, candidates] of staticRoutes) {
    const byMethod = new Map<string, RouteLookup<E>>();
    for (const route of candidates) {
      for (const method of route.methods) {
        if (byMethod.has(method)) continue;
        byMethod.set(method, { kind: "found", match: { endpoint: route.endpoint, params: NO_PARAMS } });
      }
    }
    staticLookups.set(key, byMethod);
  }
  return (method, path) => {
    // A static route that takes the method wins over any `:param` one (fewest params first, below);
    // among static routes, declaration order decides, as the stable sort below does.
    const exact = staticLookups.get(path)?.get(method);
    if (exact) return exact;
    const parts = path.split("/").slice(1);
    if (!path.startsWith("/") || parts.includes("")) return { kind: "not-found" };
    const candidates: RouteMatch<E>[] = [];
    const allow = new Set<string>();
    for (const route of routes) {
      const params = matchSegments(route.segments, parts);
      if (!params) continue;
      if (route.methods.includes(method)) candidates.push({ endpoint: route.endpoint, params });
      else for (const m of route.methods) allow.add(m);
    }
    if (candidates.length > 0) {
      candidates.sort((a, b) => Object.keys(a.params).length - Object.keys(b.params).length);
      return { kind: "found", match: candidates[0]! };
    }
    if (allow.size > 0) return { kind: "method-not-allowed", allow: [...allow] };
    return { kind: "not-found" };
  };
}

const NO_PARAMS: Record<string, string> = Object.freeze({});

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | null {
  if (pattern.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const expected = pattern[i]!;
    const actual = parts[i]!;
    if (expected.startsWith(":")) {
      try {
        params[expected.slice(1)] = decodeURIComponent(actual);
      } catch {
        return null;
      }
    } else if (expected !== actual) return null;
  }
  return params;
}
