import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { useAdminCast } from "#test/admin.ts";
import { TestBrowser } from "#test/browser.ts";

/**
 * A language in a request may be one of the eight codes or a BCP 47 tag of one of their languages
 * (what `navigator.language` and Accept-Language give); the user keeps the code. A tag of another
 * language, or a string that is no tag, is refused with the validation message and changes nothing.
 */
// biome-ignore lint/correctness/useHookAtTopLevel: a vitest fixture (use… by name), not a React hook
const { t, admin, user } = useAdminCast({ open: "once" });

const users = () => t.db.collection("users");
const storedLanguage = async (email: string) => (await users().findOne({ email }))?.language;

const ACCEPTED: [string, string][] = [
  ["en", "ENG"],
  ["ru", "RUS"],
  ["uk", "UKR"],
  ["es", "SPA"],
  ["de", "GERMAN"],
  ["pl", "POL"],
  ["fr", "FRA"],
  ["tr", "TURKEY"],
  ["de-AT", "GERMAN"],
  ["es-419", "SPA"],
  ["uk-UA", "UKR"],
  ["en-Latn-GB", "ENG"],
  ["FR", "FRA"],
  ["TURKEY", "TURKEY"],
];
const REFUSED: unknown[] = [
  "pt-BR",
  "pt",
  "ukr",
  "de_AT",
  "de-",
  "-de",
  "d",
  "de-AT-toolongsubtag",
  "",
  7,
  ["de"],
];

let signUps = 0;
const signUp = (language: unknown) =>
  new TestBrowser(t.auth).post<{ user: { language?: string } }>("/sign-up/email", {
    name: "Tag",
    email: `tag${++signUps}@example.com`,
    password: "correct horse battery",
    language,
  });

describe("language tags through the HTTP API", () => {
  it.each(ACCEPTED)("sign-up stores %j as %s and answers the code", async (tag, code) => {
    const res = await signUp(tag);
    expect(res.status).toBe(200);
    expect(res.body.user.language).toBe(code);
    expect(await storedLanguage(`tag${signUps}@example.com`)).toBe(code);
  });

  it.each(ACCEPTED)("update-user stores %j as %s", async (tag, code) => {
    const res = await user.browser.post<{ status: boolean }>("/update-user", { language: tag });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: true });
    const stored = await users().findOne({ _id: ObjectId.createFromHexString(user.id) });
    expect(stored?.language).toBe(code);
  });

  it.each(ACCEPTED)("admin create-user stores %j as %s", async (tag, code) => {
    const email = `created${++signUps}@example.com`;
    const res = await admin.browser.post<{ user: { language?: string } }>("/admin/create-user", {
      email,
      name: "Created",
      language: tag,
    });
    expect(res.status).toBe(200);
    expect(res.body.user.language).toBe(code);
    expect(await storedLanguage(email)).toBe(code);
  });

  it.each(REFUSED)(
    "refuses %j on sign-up, update-user and create-user with 400 Invalid request",
    async (tag) => {
      const before = await users().countDocuments();
      await user.browser.post("/update-user", { language: "POL" });
      const answers = [
        await signUp(tag),
        await user.browser.post("/update-user", { language: tag }),
        await admin.browser.post("/admin/create-user", {
          email: "refused@example.com",
          name: "No",
          language: tag,
        }),
      ];
      for (const res of answers) {
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ code: "VALIDATION_ERROR", message: "Invalid request" });
      }
      expect(await users().countDocuments()).toBe(before);
      const stored = await users().findOne({ _id: ObjectId.createFromHexString(user.id) });
      expect(stored?.language).toBe("POL");
    },
  );
});
