import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { useAdminCast } from "#test/admin.ts";
import { CACHE_COOKIE } from "#test/browser.ts";
import { setCookieLine } from "#test/session-cookies.ts";

const { t, admin, user } = useAdminCast({ overrides: { session: { cookieCache: { enabled: true } } } });

interface SessionBody {
  session: { id: string; impersonatedBy?: string; activeTeamId?: string };
  user: { id: string; name: string };
}

describe("the cookie cache of an impersonation session", () => {
  it("an endpoint that re-issues it from the cached documents keeps impersonatedBy, and get-session shows it", async () => {
    const started = await admin.browser.post("/admin/impersonate-user", { userId: user.id });
    expect(started.status).toBe(200);
    // update-user reads the caller from the cache and writes a new cache from those documents.
    const updated = await admin.browser.post("/update-user", { name: "Renamed" });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({ status: true });
    expect(setCookieLine(updated.headers, CACHE_COOKIE)).toBeDefined();
    const cached = await admin.browser.get<SessionBody>("/get-session");
    expect(cached.status).toBe(200);
    expect(cached.body.user).toMatchObject({ id: user.id, name: "Renamed" });
    expect(cached.body.session.impersonatedBy).toBe(admin.id);
    expect(cached.body.session).not.toHaveProperty("activeTeamId");
    const stored = await t.db.collection("users").findOne({ _id: new ObjectId(user.id) });
    expect(stored?.name).toBe("Renamed");
  });
});
