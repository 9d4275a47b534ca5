import { expect, test } from "@playwright/test";
import { fixtures, signIn } from "./fixtures";

test("a sender id request states its use, is one per name in any case, and a rejection's reason reaches the owner", async ({
  page,
  browser,
}) => {
  const { owner, admin } = fixtures();
  await signIn(page, owner);
  await page.goto("/dashboard/senders");
  await expect(page.getByText("or a number of 3-15 digits")).toBeVisible();
  // The error states the rule as the hint does.
  await page.getByLabel("Sender id").fill("+12");
  await page.getByLabel("What you will send from it").fill("Rent reminders to our tenants");
  await page.getByRole("button", { name: "Request sender id" }).click();
  await expect(page.getByTestId("sender-id-error")).toHaveText(
    "must be 1-11 letters, digits, spaces or . _ & -, or a number of 3-15 digits (a leading + allowed)",
  );

  await page.getByLabel("Sender id").fill("Alerts");
  await page.getByLabel("What you will send from it").fill("rent");
  await page.getByRole("button", { name: "Request sender id" }).click();
  await expect(page.getByTestId("sender-use-case-error")).toContainText("say what you will send from it");
  await page.getByLabel("What you will send from it").fill("Rent reminders to our tenants");
  await page.getByRole("button", { name: "Request sender id" }).click();
  const row = page.getByTestId("sender-row").filter({ hasText: "Alerts" });
  await expect(row).toContainText("Pending review");
  await expect(row).toContainText("Rent reminders to our tenants");

  await page.getByLabel("Sender id").fill("ALERTS");
  await page.getByLabel("What you will send from it").fill("Rent reminders to our tenants");
  await page.getByRole("button", { name: "Request sender id" }).click();
  await expect(page.getByTestId("sender-id-error")).toHaveText("is the same as Alerts, which is already pending");
  await expect(page.getByTestId("sender-row").filter({ hasText: /alerts/i })).toHaveCount(1);

  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  await signIn(adminPage, admin);
  await adminPage.goto("/dashboard/admin");
  const pending = adminPage.getByTestId("pending-sender-row").filter({ hasText: "Alerts" });
  await expect(pending).toContainText("Rent reminders to our tenants");
  await pending.getByRole("button", { name: "Reject Alerts for E2E Ltd" }).click();
  const dialog = adminPage.getByTestId("reject-sender-dialog");
  await dialog.getByLabel("Reason").fill("Too generic: use your brand name");
  await dialog.getByRole("button", { name: "Reject Alerts" }).click();
  await expect(adminPage.getByTestId("toast")).toContainText("Sender id Alerts rejected");
  await expect(adminPage.getByTestId("pending-sender-row").filter({ hasText: "Alerts" })).toHaveCount(0);
  await adminContext.close();

  await page.reload();
  await expect(row).toContainText("Rejected");
  await expect(row.getByTestId("sender-rejection-reason")).toHaveText("Too generic: use your brand name");
});
