import { expect, test } from "@playwright/test";
import { fixtures, signIn, snap } from "./fixtures";
import { cli } from "./global-setup";

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

test("the Accounts page lists 50 accounts a page by name, filters them, and credits one from a later page", async ({ page }) => {
  // Named to sort after every other test's account, which so stay on the first page.
  for (let index = 0; index <= 50; index++) {
    cli(["accounts:create", "--name", `Zz Paged ${String(index).padStart(2, "0")}`, "--currency", "USD", "--balance", "1.00"]);
  }
  await signIn(page, fixtures().admin);
  await page.goto("/dashboard/admin");
  const search = page.getByRole("search");
  await search.getByLabel("Name").fill("zz PAGED");
  await search.getByRole("button", { name: "Apply" }).click();
  const rows = page.getByTestId("account-row");
  await expect(rows).toHaveCount(50);
  await expect(rows.first()).toHaveAttribute("data-account-name", "Zz Paged 00");
  await expect(rows.last()).toHaveAttribute("data-account-name", "Zz Paged 49");
  const pages = page.getByRole("navigation", { name: "Pages" });
  await expect(pages.getByRole("link", { name: "First page" })).toHaveCount(0);

  await pages.getByRole("link", { name: "Next page" }).click();
  await expect(page).toHaveURL(/[?&]cursor=/);
  await expect(rows).toHaveCount(1);
  const last = page.locator('[data-testid="account-row"][data-account-name="Zz Paged 50"]');
  await expect(last.getByTestId("account-balance")).toHaveText("USD 1.00");
  await expect(pages.getByRole("link", { name: "Next page" })).toHaveCount(0);
  await last.getByRole("button", { name: "Credit Zz Paged 50" }).click();
  const dialog = page.getByTestId("credit-dialog");
  await dialog.getByLabel(/Amount/).fill("2");
  await dialog.getByLabel("Reason").fill("Invoice 2026-051 paid");
  await dialog.getByRole("button", { name: "Review credit" }).click();
  await dialog.getByRole("button", { name: "Credit USD 2.00" }).click();
  await expect(dialog).toBeHidden();
  await expect(last.getByTestId("account-balance")).toHaveText("USD 3.00");

  await pages.getByRole("link", { name: "First page" }).click();
  await expect(rows).toHaveCount(50);
  await expect(page.getByRole("search").getByLabel("Name")).toHaveValue("zz PAGED");

  // A page link the page did not give, and a name longer than any account's, are named; the list starts again.
  const response = await page.goto(`/dashboard/admin?cursor=not-a-page&name=${"x".repeat(121)}`);
  expect(response?.status()).toBe(200);
  await expect(page.getByTestId("filter-problems")).toContainText("Page: this page link is not valid; start from the first page");
  await expect(page.getByTestId("filter-problems")).toContainText("Name: at most 120 characters");
  await expect(rows).toHaveCount(50);
  await page.goto("/dashboard/admin?name=no+such+account");
  await expect(page.getByText("No accounts match")).toBeVisible();
});
