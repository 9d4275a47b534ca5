import { expect, test } from "@playwright/test";
import { cli } from "./global-setup";
import { fixtures, signIn } from "./fixtures";

test("an admin's credit repeats the amount before it is made, is bounded, and is reversed by a correcting entry", async ({ page }) => {
  cli(["accounts:create", "--name", "Credit Review Ltd", "--currency", "USD", "--balance", "0.01"]);
  await signIn(page, fixtures().admin);
  await page.goto("/dashboard/admin");
  const row = page.locator('[data-testid="account-row"][data-account-name="Credit Review Ltd"]');
  const before = (await row.getByTestId("account-balance").textContent()) ?? "";
  // The opening balance the CLI credited names its actor as the audit log does.
  const opening = page.locator('[data-testid="credit-row"][data-account-name="Credit Review Ltd"]').filter({ hasText: "opening balance" });
  await expect(opening).toContainText("the CLI");
  await row.getByRole("button", { name: "Credit Credit Review Ltd" }).click();
  const dialog = page.getByTestId("credit-dialog");

  await dialog.getByLabel(/Amount/).fill("100000000000.0001");
  await dialog.getByLabel("Reason").fill("Typo test");
  await dialog.getByRole("button", { name: "Review credit" }).click();
  await expect(dialog.getByTestId("credit-amount-error")).toHaveText("must be at most 100000000000.0000");
  await dialog.getByLabel(/Amount/).fill("100000000000");
  await dialog.getByRole("button", { name: "Review credit" }).click();
  await expect(dialog.getByTestId("credit-confirm-amount")).toHaveText("USD 100,000,000,000.00");
  await dialog.getByRole("button", { name: "Credit USD 100,000,000,000.00" }).click();
  // The balance would pass the ceiling: the server refuses and the form comes back with the amount named.
  await expect(dialog.getByTestId("credit-amount-error")).toContainText("maximum of 100000000000.0000");
  await expect(row.getByTestId("account-balance")).toHaveText(before);

  await dialog.getByLabel(/Amount/).fill("12.5");
  await dialog.getByLabel("Reason").fill("ok");
  await dialog.getByRole("button", { name: "Review credit" }).click();
  await expect(dialog.getByTestId("credit-reason-error")).toHaveText("say why, in a few words");
  await dialog.getByLabel("Reason").fill("Bank transfer 7781");
  await dialog.getByRole("button", { name: "Review credit" }).click();
  await expect(dialog.getByTestId("credit-confirm-amount")).toHaveText("USD 12.50");
  await dialog.getByRole("button", { name: "Back" }).click();
  await expect(dialog.getByLabel(/Amount/)).toHaveValue("12.5");
  await dialog.getByRole("button", { name: "Review credit" }).click();
  await dialog.getByRole("button", { name: "Credit USD 12.50" }).click();
  await expect(dialog).toBeHidden();
  await expect(row.getByTestId("account-balance")).not.toHaveText(before);

  const credit = page.locator('[data-testid="credit-row"][data-account-name="Credit Review Ltd"]').first();
  await expect(credit).toContainText("Bank transfer 7781");
  await expect(credit).toContainText("admin@tumira.test");
  await credit.getByRole("button", { name: "Reverse the credit of USD 12.50 to Credit Review Ltd" }).click();
  const reverse = page.getByTestId("reverse-credit-dialog");
  await expect(reverse.getByTestId("reverse-amount")).toHaveText("USD 12.50");
  await reverse.getByLabel("Why").fill("no");
  await reverse.getByRole("button", { name: "Reverse USD 12.50" }).click();
  await expect(reverse.getByTestId("reverse-note-error")).toHaveText("say why, in a few words");
  await reverse.getByLabel("Why").fill("Transfer bounced");
  await reverse.getByRole("button", { name: "Reverse USD 12.50" }).click();
  await expect(reverse).toBeHidden();
  await expect(row.getByTestId("account-balance")).toHaveText(before);
  await expect(credit).toContainText("Reversed");
  await expect(credit.getByRole("button", { name: /Reverse/ })).toHaveCount(0);

  // An amount finer than cents is repeated to the ten-thousandth: in the review, on the button and in the list.
  await row.getByRole("button", { name: "Credit Credit Review Ltd" }).click();
  await dialog.getByLabel(/Amount/).fill("12.3456");
  await dialog.getByLabel("Reason").fill("Bank transfer 7790");
  await dialog.getByRole("button", { name: "Review credit" }).click();
  await expect(dialog.getByTestId("credit-confirm-amount")).toHaveText("USD 12.3456");
  await dialog.getByRole("button", { name: "Credit USD 12.3456" }).click();
  await expect(dialog).toBeHidden();
  const fineCredit = page
    .locator('[data-testid="credit-row"][data-account-name="Credit Review Ltd"]')
    .filter({ hasText: "Bank transfer 7790" });
  await expect(fineCredit).toContainText("USD 12.3456");
  await expect(row.getByTestId("account-balance")).toHaveText("USD 12.3556");
});
