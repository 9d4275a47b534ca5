import { expect, test } from "@playwright/test";
import { fixtures } from "./fixtures";

test("a wrong password is refused, and repeated failures lock the email for a while", async ({ page }) => {
  const { owner } = fixtures();
  await page.goto("/login");
  await page.getByLabel("Email").fill(owner.email);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("login-error")).toHaveText("Wrong email or password.");
  await expect(page).toHaveURL(/\/login/);

  // Five failures per email within 15 minutes; the sixth try is refused without checking the password.
  const guessed = "guessed@e2e.tumira.test";
  await page.getByLabel("Email").fill(guessed);
  for (let attempt = 1; attempt <= 5; attempt++) {
    await page.getByLabel("Password").fill(`guess number ${attempt}`);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByTestId("login-error")).toHaveText("Wrong email or password.");
    await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();
  }
  await page.getByLabel("Password").fill("guess number 6");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("login-error")).toHaveText(/Too many failed sign-ins\. Try again in 1[45] minutes\./);

  // The owner's own email is not affected by another email's lockout.
  await page.getByLabel("Email").fill(owner.email);
  await page.getByLabel("Password").fill(owner.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard/);
});
