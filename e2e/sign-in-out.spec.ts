import { expect, test } from "@playwright/test";
import { fixtures, signIn, snap } from "./fixtures";

test("an owner signs in, sees the dashboard, and signs out", async ({ page }) => {
  const { owner } = fixtures();
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login/);
  await snap(page, "login");

  await signIn(page, owner);
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  await expect(page.getByTestId("account-name")).toHaveText("E2E Ltd");

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login/);
  await page.goto("/dashboard/keys");
  await expect(page).toHaveURL(/\/login/);
});
