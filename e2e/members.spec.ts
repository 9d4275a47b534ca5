import { expect, test } from "@playwright/test";
import { closeKeyDialog, createKeyInDashboard, fixtures, signIn, snap } from "./fixtures";

test("an owner adds a member, who signs in; once removed, the member's session stops working and their key does not", async ({
  page,
  browser,
  request,
}) => {
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
  const token = await createKeyInDashboard(memberPage, "Temp dev key");
  await closeKeyDialog(memberPage);

  await page.getByRole("button", { name: "Remove temp.dev@e2e.tumira.test" }).click();
  // The confirmation says what removing leaves working, as it does.
  await expect(page.getByTestId("remove-member-dialog")).toContainText("API keys they created belong to the account and keep working");
  await page.getByTestId("remove-member-dialog").getByRole("button", { name: "Remove member" }).click();
  await expect(page.getByTestId("member-row").filter({ hasText: "temp.dev@e2e.tumira.test" })).toHaveCount(0);

  await memberPage.goto("/dashboard/messages");
  await expect(memberPage).toHaveURL(/\/login/);
  expect((await request.get("/api/v1/api-tokens", { headers: { authorization: `Bearer ${token}` } })).status()).toBe(200);
  await memberContext.close();
});
