import { beforeEach, describe, expect, it } from "vitest";
import { createCast, type Person, signUpPerson } from "#test/admin.ts";
import { type TestAuth, useFreshTestAuth } from "#test/test-auth.ts";

/** Review finding 9: the multi-role list filter. */
let t: TestAuth;
let admin: Person;
let user: Person;
const freshTestAuth = useFreshTestAuth();
beforeEach(async () => {
  t = await freshTestAuth();
  ({ admin, user } = await createCast(t));
});

describe("list-users role filter (finding 9)", () => {
  it("finds multi-role holders, and a role name's dots match literally", async () => {
    t = await freshTestAuth({
      admin: { roles: { admin: { user: ["list"] }, user: {}, support: {}, "a.b": {} } },
    });
    ({ admin, user } = await createCast(t));
    const both = await signUpPerson(t, "both", "support,admin");
    await signUpPerson(t, "axb", "axb");
    await signUpPerson(t, "dotted", "a.b");
    const emails = async (query: string) =>
      (
        await admin.browser.get<{ users: { email: string }[] }>(
          `/admin/list-users?${query}&sortBy=email&sortDirection=asc`,
        )
      ).body.users.map((found) => found.email);
    expect(await emails("filterField=role&filterValue=admin")).toEqual([admin.email, both.email]);
    expect(await emails("filterField=role&filterValue=support")).toEqual([both.email]);
    expect(await emails("filterField=role&filterValue=a.b")).toEqual(["dotted@example.com"]);
    expect(await emails("filterField=role&filterValue=admin&filterOperator=ne")).toEqual([
      "axb@example.com",
      "dotted@example.com",
      user.email,
    ]);
    expect(await emails("filterField=role&filterValue=user")).toEqual([user.email]);
  });
});
