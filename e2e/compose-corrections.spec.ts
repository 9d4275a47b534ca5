import { expect, test } from "@playwright/test";
import { fixtures, signIn } from "./fixtures";

// A PNG's first bytes: the signature and the start of its header chunk, NUL bytes included.
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00]);

test("a corrected phone number clears the server's error on it", async ({ page }) => {
  await signIn(page, fixtures().owner);
  await page.goto("/dashboard/compose");
  await page.getByLabel("Message").fill("Your table is ready.");
  await page.getByLabel("Phone number").fill("12345");
  await page.getByRole("button", { name: "Send message" }).click();
  await expect(page.getByTestId("compose-to-error")).toBeVisible();
  await page.getByLabel("Phone number").fill("0771234567");
  await expect(page.getByTestId("compose-to-error")).toBeHidden();
  await expect(page.getByTestId("single-cost")).toHaveText("USD 0.0350");
});

test("the preview says a message over ten parts cannot be sent while it is typed", async ({ page }) => {
  await signIn(page, fixtures().owner);
  await page.goto("/dashboard/compose");
  await page.getByLabel("Message").fill("a".repeat(153 * 14));
  await expect(page.getByTestId("counter-segments")).toHaveText("14");
  await expect(page.getByTestId("counter-too-long")).toContainText("at most 10");
  await page.getByLabel("Phone number").fill("0771234567");
  await expect(page.getByRole("button", { name: "Send message" })).toBeDisabled();
  await page.getByLabel("Message").fill("a".repeat(153 * 10));
  await expect(page.getByTestId("counter-too-long")).toBeHidden();
  await expect(page.getByRole("button", { name: "Send message" })).toBeEnabled();
});

test("a PNG chosen as the recipient list is refused when it is chosen", async ({ page }) => {
  await signIn(page, fixtures().owner);
  await page.goto("/dashboard/compose?mode=bulk");
  await page.locator("#bulk-csv").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: PNG });
  await expect(page.getByTestId("bulk-csv-error")).toContainText("logo.png is not a CSV file");
  await expect(page.getByRole("button", { name: "Check numbers" })).toBeDisabled();
  await page.locator("#bulk-csv").setInputFiles({ name: "numbers.csv", mimeType: "text/csv", buffer: PNG });
  await expect(page.getByTestId("bulk-csv-error")).toContainText("numbers.csv is not a CSV file");
});

test("after a bulk send the form empties, the balance drops and the invalid rows stay downloadable", async ({ page }) => {
  await signIn(page, fixtures().owner);
  await page.goto("/dashboard/compose?mode=bulk");
  const before = await page.getByTestId("compose-available").textContent();
  await page.getByLabel("Message").fill("Stock take on Friday.");
  await page.getByLabel("Paste numbers").fill(["0771000201", "0771000202", "12345", "+27821234567"].join("\n"));
  await page.getByRole("button", { name: "Check numbers" }).click();
  await expect(page.getByTestId("invalid-row")).toHaveCount(2);
  await page.getByRole("button", { name: "Send to 2 recipients" }).click();
  await expect(page.getByTestId("bulk-result")).toContainText("2 messages accepted");

  await expect(page.getByLabel("Paste numbers")).toHaveValue("");
  await expect(page.getByLabel("Message")).toHaveValue("");
  await expect(page.getByRole("button", { name: /^Send/ })).toBeDisabled();
  await expect(page.getByTestId("compose-available")).not.toHaveText(before ?? "");

  await expect(page.getByTestId("invalid-row")).toHaveCount(2);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download invalid rows (CSV)" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe("invalid-numbers.csv");
  const text = await (await import("node:fs/promises")).readFile((await download.path())!, "utf8");
  const lines = text.trim().split(/\r\n/);
  expect(lines[0]).toBe("line,value,reason");
  expect(lines).toHaveLength(3);
  expect(lines[1]).toMatch(/^3,12345,/);
  expect(lines[2]).toMatch(/^4,'\+27821234567,/);
});
