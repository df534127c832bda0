import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAction, initAction } from "../../packages/cli/src/commands/init.ts";
import { toKnownError } from "../../packages/cli/src/errors.ts";
import { testRun } from "./run-context.ts";

/** `tessera create` / `tessera init` on a fresh copy of the Remix template: idempotent, never clobbering. */
let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "tessera-init-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function run() {
  const context = testRun("unused");
  return { ...context, io: { ...context.io, cwd: root } };
}

const secretOf = (env: string) => /^TESSERA_SECRET=(.+)$/m.exec(env)?.[1];

describe("tessera create and init", () => {
  it("create makes the Remix app and adds the auth files, .env with a fresh secret and the dependencies", async () => {
    const result = await createAction(run(), "shop", { yes: true, providers: "github" });
    const app = join(root, "shop");
    expect(result.changed).toBe(true);
    for (const path of [
      "app/auth.server.ts",
      "app/routes/api.auth.$.ts",
      "app/routes/sign-in.tsx",
      "app/routes/sign-up.tsx",
      "app/routes/forgot-password.tsx",
      "app/routes/reset-password.tsx",
      "app/routes/verify-email.tsx",
      "app/routes/two-factor.tsx",
      "app/routes/accept-invitation.$id.tsx",
      "app/routes/account.tsx",
      "tessera.config.ts",
    ]) {
      expect(result.files).toContainEqual({ path, action: "create" });
      expect(existsSync(join(app, path))).toBe(true);
    }
    expect(existsSync(join(app, ".gitignore"))).toBe(true);
    const env = await readFile(join(app, ".env"), "utf8");
    expect(secretOf(env)).toMatch(/^[\w-]{43}$/);
    expect(env).toContain("GITHUB_CLIENT_ID=");
    expect(await readFile(join(app, "tessera.config.ts"), "utf8")).toContain("github: {");
    const pkg = JSON.parse(await readFile(join(app, "package.json"), "utf8"));
    expect(pkg).toMatchObject({ name: "shop", dependencies: { "@tessera/auth-core": "^0.1.0" } });
  });

  it("a second init changes nothing and says so; the secret stays", async () => {
    const app = join(root, "shop");
    const before = await readFile(join(app, ".env"), "utf8");
    const again = await initAction(run(), "shop", { yes: true, providers: "github" });
    expect(again.changed).toBe(false);
    expect(again.files.every((file) => file.action === "unchanged")).toBe(true);
    expect(await readFile(join(app, ".env"), "utf8")).toBe(before);
  });

  it("a file the user changed is kept (--force overwrites it); --dry-run writes nothing", async () => {
    const app = join(root, "shop");
    const signIn = join(app, "app/routes/sign-in.tsx");
    await writeFile(signIn, "// mine\n");
    await rm(join(app, "app/routes/account.tsx"));
    const dry = await initAction(run(), "shop", { yes: true, providers: "github", dryRun: true });
    expect(dry.files).toContainEqual({ path: "app/routes/sign-in.tsx", action: "kept" });
    expect(dry.files).toContainEqual({ path: "app/routes/account.tsx", action: "create" });
    expect(existsSync(join(app, "app/routes/account.tsx"))).toBe(false);

    const kept = await initAction(run(), "shop", { yes: true, providers: "github" });
    expect(kept.files).toContainEqual({ path: "app/routes/sign-in.tsx", action: "kept" });
    expect(await readFile(signIn, "utf8")).toBe("// mine\n");
    expect(existsSync(join(app, "app/routes/account.tsx"))).toBe(true);

    const forced = await initAction(run(), "shop", { yes: true, providers: "github", force: true });
    expect(forced.files).toContainEqual({ path: "app/routes/sign-in.tsx", action: "overwrite" });
    expect(await readFile(signIn, "utf8")).toContain("signInEmail");
  });

  it("refuses a directory that is not a Remix app (exit 2)", async () => {
    await writeFile(join(root, "package.json"), JSON.stringify({ name: "not-remix" }));
    const error = await initAction(run(), ".", { yes: true }).catch((caught: unknown) => caught);
    expect(toKnownError(error)?.exitCode).toBe(2);
  });
});
