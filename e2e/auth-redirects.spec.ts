import { expect, test, type Page } from "@playwright/test";
import { fixtures } from "./fixtures";
import type { E2eUser } from "./global-setup";

async function fillSignIn(page: Page, user: E2eUser): Promise<void> {
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

test("sign-in and sign-out stay on the origin the browser used, not the configured one", async ({ page, baseURL }) => {
  // The server's NEXTAUTH_URL names 127.0.0.1; this browser reaches the same server as localhost.
  const origin = baseURL!.replace("127.0.0.1", "localhost");
  await page.goto(`${origin}/login`);
  await fillSignIn(page, fixtures().owner);
  await expect(page).toHaveURL(`${origin}/dashboard`);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(`${origin}/login`);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
});

test("a deep link visited signed out comes back after signing in", async ({ page }) => {
  const { support, otherAccount } = fixtures();
  const deepLink = `/dashboard/messages/${otherAccount.messageId}`;
  await page.goto(deepLink);
  await expect(page).toHaveURL(`/login?callbackUrl=${encodeURIComponent(deepLink)}`);
  await fillSignIn(page, support);
  await expect(page).toHaveURL(deepLink);
  await expect(page.getByTestId("message-id")).toHaveText(otherAccount.messageId);
});

test("a deep link keeps its query, and a callback to another site is ignored", async ({ page }) => {
  const { owner } = fixtures();
  await page.goto("/dashboard/messages?status=failed");
  await expect(page).toHaveURL(`/login?callbackUrl=${encodeURIComponent("/dashboard/messages?status=failed")}`);
  await fillSignIn(page, owner);
  await expect(page).toHaveURL("/dashboard/messages?status=failed");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login$/);

  for (const hostile of ["//evil.example/x", "/\\evil.example/x", "https://evil.example/x"]) {
    await page.goto(`/login?callbackUrl=${encodeURIComponent(hostile)}`);
    await fillSignIn(page, owner);
    await expect(page).toHaveURL("/dashboard");
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/login$/);
  }
});
