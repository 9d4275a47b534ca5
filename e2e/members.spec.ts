import { expect, test } from "@playwright/test";
import { fixtures, signIn, snap } from "./fixtures";

test("an owner adds a member, who signs in; once removed, the member's session stops working", async ({ page, browser }) => {
  await signIn(page, fixtures().owner);
  await page.goto("/dashboard/members");
  await page.getByRole("button", { name: "Add member" }).click();
  await page.getByLabel("Email").fill("someone@localhost");
  await page.getByTestId("add-member-dialog").getByRole("button", { name: "Add member" }).click();
  await expect(page.getByTestId("member-email-error")).toHaveText("must be an email address");

  await page.getByLabel("Email").fill("temp.dev@e2e.tumira.test");
  await page.getByTestId("add-member-dialog").getByRole("button", { name: "Add member" }).click();
  const password = await page.getByTestId("member-password").inputValue();
  await page.getByTestId("member-added-dialog").getByRole("button", { name: "Done" }).click();
  await snap(page, "members");

  const memberContext = await browser.newContext();
  const memberPage = await memberContext.newPage();
  await signIn(memberPage, { email: "temp.dev@e2e.tumira.test", password });
  await memberPage.goto("/dashboard/messages");
  await expect(memberPage.getByRole("heading", { name: "Messages" })).toBeVisible();

  await page.getByRole("button", { name: "Remove temp.dev@e2e.tumira.test" }).click();
  await page.getByTestId("remove-member-dialog").getByRole("button", { name: "Remove member" }).click();
  await expect(page.getByTestId("member-row").filter({ hasText: "temp.dev@e2e.tumira.test" })).toHaveCount(0);

  await memberPage.goto("/dashboard/messages");
  await expect(memberPage).toHaveURL(/\/login/);
  await memberContext.close();
});
