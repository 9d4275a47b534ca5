import { expect, test } from "@playwright/test";
import { fixtures, signIn, snap } from "./fixtures";

test("an admin approves a sender id and credits a balance with a reason", async ({ page, browser }) => {
  const { admin, owner, pendingSender } = fixtures();
  await signIn(page, admin);
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Accounts" }).click();
  await expect(page.getByRole("heading", { name: "Accounts", level: 1 })).toBeVisible();
  await snap(page, "admin-accounts");

  await page.getByRole("button", { name: `Approve ${pendingSender} for E2E Ltd` }).click();
  await expect(page.getByTestId("toast")).toContainText(`Sender id ${pendingSender} approved`);
  await expect(page.getByTestId("pending-sender-row")).toHaveCount(0);

  const row = page.locator('[data-testid="account-row"][data-account-name="Other Co"]');
  await expect(row.getByTestId("account-balance")).toHaveText("USD 9.9650");
  await row.getByRole("button", { name: "Credit Other Co" }).click();
  await page.getByLabel(/Amount/).fill("25.5");
  await page.getByLabel("Reason").fill("ok");
  await page.getByRole("button", { name: "Review credit" }).click();
  await expect(page.getByTestId("credit-reason-error")).toHaveText("say why, in a few words");
  await page.getByLabel(/Amount/).fill("-3");
  await page.getByLabel("Reason").fill("Invoice 2024-031 paid");
  await page.getByRole("button", { name: "Review credit" }).click();
  await expect(page.getByTestId("credit-amount-error")).toContainText("positive amount");
  await page.getByLabel(/Amount/).fill("25.50");
  await page.getByRole("button", { name: "Review credit" }).click();
  await page.getByRole("button", { name: "Credit USD 25.50" }).click();
  await expect(row.getByTestId("account-balance")).toHaveText("USD 35.4650");

  // The owner can now send from the approved sender id.
  const ownerContext = await browser.newContext();
  const ownerPage = await ownerContext.newPage();
  await signIn(ownerPage, owner);
  await ownerPage.goto("/dashboard/senders");
  await expect(ownerPage.getByTestId("sender-row").filter({ hasText: pendingSender })).toContainText("Approved");
  await ownerPage.goto("/dashboard/compose");
  await expect(ownerPage.getByLabel("From (sender id)").locator("option")).toContainText([pendingSender]);
  await ownerContext.close();
});
