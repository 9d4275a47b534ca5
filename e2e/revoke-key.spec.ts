import { expect, test } from "@playwright/test";
import { closeKeyDialog, createKeyInDashboard, fixtures, signIn } from "./fixtures";

test("a revoked key is refused by the API at once and stays listed as revoked", async ({ page, request }) => {
  await signIn(page, fixtures().developer);
  const token = await createKeyInDashboard(page, "Key to revoke");
  await closeKeyDialog(page);
  const auth = { authorization: `Bearer ${token}` };
  expect((await request.get("/api/v1/api-tokens", { headers: auth })).status()).toBe(200);

  const row = page.locator('[data-testid="key-row"][data-key-name="Key to revoke"]');
  await row.getByRole("button", { name: "Revoke Key to revoke" }).click();
  const dialog = page.getByTestId("revoke-dialog");
  await expect(dialog).toContainText("Revoke “Key to revoke”?");
  await dialog.getByRole("button", { name: "Revoke Key to revoke" }).click();
  await expect(row).toContainText("Revoked");
  await expect(row.getByRole("button", { name: /Revoke/ })).toHaveCount(0);

  const refused = await request.get("/api/v1/api-tokens", { headers: auth });
  expect(refused.status()).toBe(401);
  expect((await refused.json()).error.code).toBe("UNAUTHORIZED");
});
