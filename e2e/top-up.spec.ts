import { expect, test, type Browser, type Page } from "@playwright/test";
import { cli, type E2eUser } from "./global-setup";
import { captureServerAction, expectNoOverflow, fixtures, signIn, snap } from "./fixtures";

// A top-up request from the owner's Balance page to the admin's queue and back: approved once (the
// balance moves once, however often the approval is sent), declined with a reason the owner reads,
// or cancelled by the owner while pending.
async function signedInPage(browser: Browser, user: E2eUser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, user);
  return page;
}

async function requestTopUp(page: Page, amount: string, reference: string, note = ""): Promise<void> {
  await page.getByLabel(/^Amount/).fill(amount);
  await page.getByLabel("Payment reference").fill(reference);
  await page.getByLabel("Note (optional)").fill(note);
  await page.getByRole("button", { name: "Request top-up" }).click();
}

test("an owner requests a top-up, an admin approves it, and the balance moves once", async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const { admin } = fixtures();
  const owner = { email: "owner@topup.tumira.test", password: "e2e top-up owner password" };
  cli([
    ...["accounts:create", "--name", "Topup Co", "--currency", "USD", "--balance", "5.00", "--sender", "TOPUP"],
    ...["--owner-email", owner.email, "--owner-password", owner.password],
  ]);
  const ownerPage = await signedInPage(browser, owner);
  await ownerPage.goto("/dashboard/billing");
  await expect(ownerPage.getByTestId("balance-available")).toContainText("USD 5.00");

  // Refused input is named under its field and stores nothing.
  await requestTopUp(ownerPage, "0", "FNB 4411");
  await expect(ownerPage.getByText("must be a positive amount with at most four decimals")).toBeVisible();
  await expect(ownerPage.getByTestId("top-up-row")).toHaveCount(0);

  await requestTopUp(ownerPage, "12.34", "FNB 4411", "March invoice");
  const pendingRow = ownerPage.getByTestId("top-up-row").filter({ hasText: "FNB 4411" });
  await expect(pendingRow.getByTestId("top-up-state")).toHaveText("Pending");

  const adminPage = await signedInPage(browser, admin);
  const nav = adminPage.getByRole("navigation", { name: "Dashboard" });
  await expect(nav.getByRole("link", { name: /Top-up requests/ }).getByTestId("nav-badge")).toBeVisible();
  await adminPage.goto("/dashboard/top-ups");
  const adminRow = adminPage.locator('[data-testid="pending-top-up-row"][data-account-name="Topup Co"]');
  await expect(adminRow).toContainText("FNB 4411");
  await expect(adminRow).toContainText(owner.email);
  await snap(adminPage, "top-up-admin-pending");
  await adminRow.getByRole("button", { name: "Approve the top-up FNB 4411" }).click();
  await expect(adminPage.getByTestId("approve-top-up-amount")).toHaveText("USD 12.34");
  const approval = captureServerAction(adminPage);
  await adminPage.getByRole("button", { name: "Credit USD 12.34" }).click();
  const captured = await approval;
  await expect(adminPage.getByTestId("toast")).toContainText("Topup Co credited USD 12.34");
  await expect(adminRow).toHaveCount(0);

  // The same approval sent again (a double click, a second admin) credits nothing.
  const replay = await adminPage.request.post(captured.url, {
    headers: { "next-action": captured.actionId, "content-type": "text/plain;charset=UTF-8", accept: "text/x-component", origin: baseURL! },
    data: captured.body,
  });
  expect(await replay.text()).toContain('"code":"CONFLICT"');

  await ownerPage.reload();
  await expect(pendingRow.getByTestId("top-up-state")).toHaveText("Approved");
  await expect(ownerPage.getByTestId("balance-available")).toContainText("USD 17.34");
  await expect(ownerPage.getByTestId("ledger-row").filter({ hasText: "Top-up request" })).toHaveCount(1);
  await adminPage.goto("/dashboard/admin");
  await expect(adminPage.locator('[data-testid="account-row"][data-account-name="Topup Co"]').getByTestId("account-balance")).toHaveText(
    "USD 17.34",
  );

  // Declined with a reason the owner reads; cancelled by the owner while pending.
  await ownerPage.goto("/dashboard/billing");
  await requestTopUp(ownerPage, "3.00", "Cash deposit 77");
  await expect(ownerPage.getByTestId("top-up-row").filter({ hasText: "Cash deposit 77" })).toBeVisible();
  await requestTopUp(ownerPage, "1.00", "Typed by mistake");
  await expect(ownerPage.getByTestId("top-up-row")).toHaveCount(3);
  await ownerPage.getByRole("button", { name: "Cancel the top-up Typed by mistake" }).click();
  const confirmCancel = ownerPage.getByTestId("cancel-top-up-dialog");
  await expect(confirmCancel).toContainText("USD 1.00, reference Typed by mistake");
  await expect(ownerPage.getByTestId("top-up-row").filter({ hasText: "Typed by mistake" }).getByTestId("top-up-state")).toHaveText(
    "Pending",
  );
  await confirmCancel.getByRole("button", { name: "Cancel the request" }).click();
  await expect(ownerPage.getByTestId("top-up-row").filter({ hasText: "Typed by mistake" }).getByTestId("top-up-state")).toHaveText(
    "Cancelled",
  );
  await adminPage.goto("/dashboard/top-ups");
  await expect(adminPage.locator('[data-testid="pending-top-up-row"][data-account-name="Topup Co"]')).toHaveCount(1);
  await adminPage.getByRole("button", { name: "Decline the top-up Cash deposit 77" }).click();
  await adminPage.getByLabel("Reason").fill("No deposit with this reference arrived");
  await adminPage
    .getByTestId("decline-top-up-dialog")
    .getByRole("button", { name: /^Decline/ })
    .click();
  await expect(adminPage.getByTestId("toast")).toContainText("declined");
  await ownerPage.reload();
  const declined = ownerPage.getByTestId("top-up-row").filter({ hasText: "Cash deposit 77" });
  await expect(declined.getByTestId("top-up-state")).toHaveText("Declined");
  await expect(declined.getByTestId("top-up-decline-reason")).toHaveText("No deposit with this reference arrived");
  await expect(ownerPage.getByTestId("balance-available")).toContainText("USD 17.34");

  await expectNoOverflow(ownerPage, "/dashboard/billing", "top-up-balance");
  await expectNoOverflow(adminPage, "/dashboard/top-ups", "top-up-admin");
});
