import { expect, test } from "@playwright/test";
import { fixtures, signIn, snap } from "./fixtures";

const CSV = [
  "phone,name",
  "+263771000101,Ann",
  "0712000102,Ben",
  "263732000103,Chi",
  "0771000101,Ann again",
  "12345,Typo",
  "+27821234567,Abroad",
  "0782000105,Dee",
  "0772000001,Eve",
].join("\n");

test("a bulk send from a CSV lists two bad numbers and a duplicate before sending", async ({ page }) => {
  await signIn(page, fixtures().owner);
  await page.goto("/dashboard/compose?mode=bulk");
  await page.getByLabel("Message").fill("Our offices close at 3pm today.");
  await page.locator("#bulk-csv").setInputFiles({ name: "customers.csv", mimeType: "text/csv", buffer: Buffer.from(CSV) });
  await page.getByRole("button", { name: "Check numbers" }).click();

  await expect(page.getByTestId("bulk-valid-count")).toHaveText("5");
  await expect(page.getByTestId("bulk-invalid-count")).toHaveText("2");
  await expect(page.getByTestId("bulk-duplicate-count")).toHaveText("1");
  const invalid = page.getByTestId("invalid-row");
  await expect(invalid).toHaveCount(2);
  await expect(invalid.nth(0)).toContainText("12345");
  await expect(invalid.nth(1)).toContainText("+27821234567");
  await expect(page.getByTestId("duplicate-row")).toContainText("same as line 2");
  // 3 econet (0.0350), 1 netone (0.0300), 1 telecel (0.0320): 5 segments, USD 0.1670.
  await expect(page.getByTestId("bulk-total-segments")).toHaveText("5");
  await expect(page.getByTestId("bulk-total-cost")).toHaveText("USD 0.1670");
  await snap(page, "compose-bulk");

  await page.getByRole("button", { name: "Send to 5 recipients" }).click();
  await expect(page.getByTestId("bulk-result")).toContainText("5 messages accepted");
  await page.getByTestId("bulk-result-link").click();
  await expect(page).toHaveURL(/\/dashboard\/messages\?bulk=/);
  await expect(page.getByTestId("message-row")).toHaveCount(5);
  await expect(page.getByTestId("message-row").first()).not.toContainText("Queued", { timeout: 30_000 });
});
