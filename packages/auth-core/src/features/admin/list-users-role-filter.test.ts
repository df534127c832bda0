import { describe, expect, it } from "vitest";
import { signUpPerson, useAdminCast } from "#test/admin.ts";

/** Review finding 9: the multi-role list filter. */
const { t, admin, user, setUp } = useAdminCast({ open: "by-set-up" });

describe("list-users role filter", () => {
  it("finds multi-role holders, and a role name's dots match literally", async () => {
    await setUp({
      admin: { roles: { admin: { user: ["list"] }, user: {}, support: {}, "a.b": {} } },
    });
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
