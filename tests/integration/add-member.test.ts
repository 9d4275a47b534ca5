// Adding a member never tells one account about another's users: an address held elsewhere gets
// the same neutral refusal whoever holds it, and nothing is written. Over-long addresses are refused by name.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createAccount } from "@/lib/accounts/create-account";
import { addMember, addMemberSchema, EMAIL_UNAVAILABLE } from "@/lib/users/add-member";
import { createUser } from "@/lib/users/create-user";
import { useTestDatabase } from "../helpers/test-database";

useTestDatabase();

const owner = (email: string) => ({ email, password: "a long enough password" });

describe("adding a member", () => {
  it("refuses an address of another account or of platform staff with the same neutral words", async () => {
    const mine = await createAccount({ name: "Mine", currency: "USD", openingBalance: 0n, actor: "test", owner: owner("me@mine.test") });
    await createAccount({ name: "Theirs", currency: "USD", openingBalance: 0n, actor: "test", owner: owner("boss@theirs.test") });
    await createUser({ email: "staff@tumira.test", password: "a long enough password", role: "support", actor: "test" });
    const usersBefore = await db().user.count();

    for (const email of ["boss@theirs.test", "BOSS@Theirs.test", "staff@tumira.test"]) {
      const input = addMemberSchema.parse({ email, role: "developer" });
      await expect(addMember({ ...input, accountId: mine.id, actor: "test" })).rejects.toMatchObject({
        code: "VALIDATION_ERROR",
        options: { fields: [{ field: "email", description: EMAIL_UNAVAILABLE }] },
      });
    }
    expect(EMAIL_UNAVAILABLE).not.toMatch(/taken|exists|another account|support|admin/i);
    expect(await db().user.count()).toBe(usersBefore);

    await expect(addMember({ email: "me@mine.test", role: "developer", accountId: mine.id, actor: "test" })).rejects.toMatchObject({
      options: { fields: [{ field: "email", description: "is already a member of this account" }] },
    });
    const added = await addMember({ email: "new@mine.test", role: "developer", accountId: mine.id, actor: "test" });
    expect(added).toMatchObject({ email: "new@mine.test", role: "developer" });
    expect(added.password.length).toBeGreaterThanOrEqual(10);
  });

  it("bounds an address at 254 characters and names the field", () => {
    const at254 = `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(56)}.test`;
    expect(at254).toHaveLength(254);
    expect(addMemberSchema.safeParse({ email: at254, role: "developer" }).success).toBe(true);
    const long = addMemberSchema.safeParse({ email: `${"a".repeat(300)}@example.test`, role: "developer" });
    expect(long.success).toBe(false);
    expect(long.error?.issues).toEqual([expect.objectContaining({ path: ["email"], message: "must be at most 254 characters" })]);
  });
});
