import { expect, test } from "@playwright/test";
import { fixtures, signIn } from "./fixtures";

test("a session cookie saved before sign-out is refused afterwards", async ({ page, browser }) => {
  const { developer } = fixtures();
  await signIn(page, developer);
  const saved = await page.context().cookies();
  expect(saved.some((cookie) => cookie.name.includes("next-auth.session-token"))).toBe(true);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login/);

  const replay = await browser.newContext();
  await replay.addCookies(saved);
  const replayed = await replay.newPage();
  await replayed.goto("/dashboard/keys");
  await expect(replayed).toHaveURL(/\/login/);
  const api = await replay.request.get("/api/dashboard/messages");
  expect(api.status()).toBe(401);
  await replay.close();
});
