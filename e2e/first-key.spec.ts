import { expect, test } from "@playwright/test";
import { closeKeyDialog, createKeyInDashboard, signIn, snap } from "./fixtures";
import { cli } from "./global-setup";

test("an owner creates the first key, copies it once, and the API accepts it", async ({ page, context, request }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  // An account of its own: other specs give the shared owner's account keys.
  const owner = { email: `first-key-${Date.now()}@e2e.tumira.test`, password: "e2e first key password" };
  cli([
    "accounts:create",
    "--name",
    "First Key Ltd",
    "--currency",
    "USD",
    "--balance",
    "1.00",
    "--sender",
    "FIRST",
    "--owner-email",
    owner.email,
    "--owner-password",
    owner.password,
  ]);
  await signIn(page, owner);
  await page.goto("/dashboard/keys");
  await expect(page.getByText("No API keys yet")).toBeVisible();
  await snap(page, "keys-empty");

  const token = await createKeyInDashboard(page, "Production server");
  await snap(page, "key-created-dialog");
  const shown = page.getByTestId("new-key-dialog");
  await expect(shown.getByRole("button", { name: "Copy" })).toBeFocused();

  // Before Copy, Escape does not close it silently: it asks, and the question has the focus.
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("confirm-close")).toBeVisible();
  await expect(shown.getByRole("button", { name: "Go back" })).toBeFocused();
  await shown.getByRole("button", { name: "Go back" }).click();

  await shown.getByRole("button", { name: "Copy" }).click();
  await expect(shown.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
  await closeKeyDialog(page, { copied: true });

  const row = page.locator('[data-testid="key-row"][data-key-name="Production server"]');
  await expect(row).toContainText(token.slice(0, 12));
  await expect(row).toContainText("Active");
  await expect(page.getByText(token)).toHaveCount(0);

  const response = await request.get("/api/v1/api-tokens", { headers: { authorization: `Bearer ${token}` } });
  expect(response.status()).toBe(200);
  const body = await response.json();
  expect(body.data.map((key: { Name: string }) => key.Name)).toContain("Production server");
  await snap(page, "keys");
});
