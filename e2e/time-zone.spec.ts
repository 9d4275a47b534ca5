import { expect, test } from "@playwright/test";
import { cli } from "./global-setup";
import { closeKeyDialog, createKeyInDashboard, signIn } from "./fixtures";

// Harare is two hours ahead of UTC all year, so a time left in the server's UTC reads differently.
test.use({ timezoneId: "Africa/Harare" });

test("a time reads in the browser's zone, the same whether the browser or the server rendered it", async ({ page }) => {
  const owner = { email: "owner@zone.tumira.test", password: "e2e zone owner password" };
  cli([
    "accounts:create",
    "--name",
    "Zone Ltd",
    "--currency",
    "USD",
    "--balance",
    "1.00",
    "--sender",
    "ZONE",
    "--owner-email",
    owner.email,
    "--owner-password",
    owner.password,
  ]);
  await signIn(page, owner);
  await createKeyInDashboard(page, "Zone key");
  await closeKeyDialog(page);

  // The new row was rendered in the browser; the key's only time is when it was created.
  const created = page.locator('[data-testid="key-row"][data-key-name="Zone key"] time');
  await expect(created).toHaveCount(1);
  const instant = new Date((await created.getAttribute("datetime"))!);
  const inHarare = new Intl.DateTimeFormat("en-GB", {
    timeZone: "Africa/Harare",
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  }).format(instant);
  await expect(created).toHaveText(inHarare);
  await expect(created).toHaveAttribute("title", `Africa/Harare; ${instant.toISOString().slice(0, 19).replace("T", " ")} UTC`);

  // After a reload the server renders the same row, and it reads the same.
  await page.reload();
  await expect(created).toHaveText(inHarare);
  await expect(created).toHaveAttribute("title", /^Africa\/Harare; /);
});
