import { expect, test } from "@playwright/test";
import { fixtures, signIn } from "./fixtures";

test("adding another account's user says nothing about that account, and an over-long email is refused by name", async ({ page }) => {
  const { owner, developer } = fixtures();
  await signIn(page, owner);
  await page.goto("/dashboard/members");
  await page.getByRole("button", { name: "Add member" }).click();
  const dialog = page.getByTestId("add-member-dialog");
  const add = dialog.getByRole("button", { name: "Add member" });

  await dialog.getByLabel("Email").fill("owner@other.tumira.test");
  await add.click();
  const error = page.getByTestId("member-email-error");
  await expect(error).toHaveText("cannot be added to this account; ask them for another address");
  await dialog.getByLabel("Email").fill("support@tumira.test");
  await add.click();
  await expect(error).toHaveText("cannot be added to this account; ask them for another address");
  await expect(error).not.toContainText("taken");

  await dialog.getByLabel("Email").fill(developer.email);
  await add.click();
  await expect(error).toHaveText("is already a member of this account");

  await dialog.getByLabel("Email").fill(`${"a".repeat(300)}@example.test`);
  await add.click();
  await expect(error).toHaveText("must be at most 254 characters");
  await expect(page.getByTestId("member-added-dialog")).toBeHidden();
});
