import { expect, test } from "@playwright/test";
import { fixtures, signIn, snap } from "./fixtures";

test("an owner composes a single send and watches it reach delivered", async ({ page }) => {
  await signIn(page, fixtures().owner);
  await page.goto("/dashboard/compose");
  await page.getByLabel("Message").fill("Hello from Tumira “quoted”");
  await expect(page.getByTestId("counter-encoding")).toHaveText("UCS-2");
  await expect(page.getByTestId("ucs2-characters")).toContainText("U+201C");
  await page.getByLabel("Message").fill("Your order 1042 has shipped and arrives tomorrow.");
  await expect(page.getByTestId("counter-encoding")).toHaveText("GSM-7");
  await expect(page.getByTestId("counter-segments")).toHaveText("1");
  await expect(page.getByTestId("counter-prices")).toContainText("USD 0.0350");
  await page.getByLabel("Phone number").fill("0771234567");
  await expect(page.getByTestId("single-cost")).toHaveText("USD 0.0350");
  await snap(page, "compose-single");

  await page.getByRole("button", { name: "Send message" }).click();
  await expect(page).toHaveURL(/\/dashboard\/messages\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("message-body")).toHaveText("Your order 1042 has shipped and arrives tomorrow.");
  await expect(page.getByTestId("message-status")).toHaveText("Delivered", { timeout: 30_000 });
  await expect(page.getByTestId("message-delivered-at")).not.toHaveText("Not yet");
  const kinds = await page.getByTestId("timeline-event").evaluateAll((items) => items.map((item) => item.getAttribute("data-kind")));
  expect(kinds).toEqual(expect.arrayContaining(["accepted", "dispatched", "delivered"]));
  await expect(page.getByTestId("message-ledger")).toContainText(/hold.*-USD 0\.0350/i);
  await snap(page, "message-detail");

  // The charge reads the same, to the ten-thousandth, in the messages list and in the ledger.
  const messageId = page.url().split("/").pop()!;
  await page.goto("/dashboard/messages");
  await expect(page.locator(`[data-testid="message-row"][data-message-id="${messageId}"]`)).toContainText("USD 0.0350");
  await page.goto("/dashboard/billing");
  await expect(page.getByTestId("ledger-row").filter({ hasText: messageId })).toContainText("-USD 0.0350");
});
