import { describe, expect, it } from "vitest";
import { TestBrowser } from "#test/browser.ts";
import { useTestAuth } from "#test/test-auth.ts";

const t = useTestAuth();

describe("/ok", () => {
  it("answers { ok: true }", async () => {
    const res = await new TestBrowser(t.auth).get("/ok");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
  });
});

describe("/error", () => {
  it("shows the error code from the query and a link back to the application root", async () => {
    const res = await new TestBrowser(t.auth).get<string>("/error?error=state_not_found");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.body).toContain("<code>state_not_found</code>");
    expect(res.body).toContain('<a href="http://localhost:3000/">');
  });

  it("shows Unknown without an error code", async () => {
    const res = await new TestBrowser(t.auth).get<string>("/error");
    expect(res.body).toContain("<code>Unknown</code>");
  });

  it("escapes what it shows, so a crafted link cannot inject markup or script", async () => {
    const payload = `"><script>alert(1)</script><img src=x onerror=alert(2)>`;
    const res = await new TestBrowser(t.auth).get<string>(`/error?error=${encodeURIComponent(payload)}`);
    expect(res.status).toBe(200);
    expect(res.body).not.toContain("<script>");
    expect(res.body).not.toContain("<img");
    expect(res.body).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
  });
});
