import { expect, test } from "@playwright/test";
import { closeKeyDialog, createKeyInDashboard, fixtures, signIn } from "./fixtures";

test("rolling a key with a grace period keeps the old key working until it expires", async ({ page, request }) => {
  await signIn(page, fixtures().owner);
  const oldToken = await createKeyInDashboard(page, "Billing worker");
  await closeKeyDialog(page);

  const rows = page.locator('[data-testid="key-row"][data-key-name="Billing worker"]');
  await rows.getByRole("button", { name: "Roll Billing worker" }).click();
  const dialog = page.getByTestId("roll-dialog");
  await dialog.getByLabel("Grace period for the old key").selectOption("1h");
  await dialog.getByRole("button", { name: "Roll key" }).click();

  const newToken = await page.getByTestId("new-key-dialog").getByTestId("new-key-token").inputValue();
  expect(newToken).toMatch(/^tmr_live_/);
  expect(newToken).not.toBe(oldToken);
  await closeKeyDialog(page);

  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: oldToken.slice(0, 12) })).toContainText("Expires");
  await expect(rows.filter({ hasText: newToken.slice(0, 12) })).toContainText("Active");
  // The old key is rolled once: it can be revoked, and its replacement is the one to roll.
  await expect(rows.filter({ hasText: oldToken.slice(0, 12) }).getByRole("button", { name: "Roll Billing worker" })).toHaveCount(0);
  await expect(rows.filter({ hasText: oldToken.slice(0, 12) }).getByRole("button", { name: "Revoke Billing worker" })).toBeVisible();
  await expect(rows.filter({ hasText: newToken.slice(0, 12) }).getByRole("button", { name: "Roll Billing worker" })).toBeVisible();

  for (const token of [oldToken, newToken]) {
    expect((await request.get("/api/v1/api-tokens", { headers: { authorization: `Bearer ${token}` } })).status()).toBe(200);
  }
});
