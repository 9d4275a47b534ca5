import { expect, test } from "@playwright/test";
import { fixtures, signIn } from "./fixtures";

test("a send the balance does not cover is refused and charges nothing", async ({ page }) => {
  await signIn(page, fixtures().brokeOwner);
  await page.goto("/dashboard/compose");
  await expect(page.getByTestId("compose-available")).toHaveText("USD 0.01");
  await page.getByLabel("Phone number").fill("+263771234567");
  await page.getByLabel("Message").fill("This costs more than the account has");
  await page.getByRole("button", { name: "Send message" }).click();
  await expect(page.getByTestId("send-error")).toContainText("Insufficient balance");
  await expect(page).toHaveURL(/\/dashboard\/compose$/);

  await page.goto("/dashboard/messages");
  await expect(page.getByText("No messages yet")).toBeVisible();
  await page.goto("/dashboard/billing");
  await expect(page.getByTestId("balance-available")).toHaveText("USD 0.01");
  await expect(page.getByTestId("ledger-row")).toHaveCount(1);
});
