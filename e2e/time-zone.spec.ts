import { expect, test } from "@playwright/test";
import { cli } from "./global-setup";
import { closeKeyDialog, createKeyInDashboard, fixtures, signIn } from "./fixtures";

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

test.describe("scheduling in the account's time zone", () => {
  // A browser in London, an account in Tokyo (nine hours ahead of UTC all year): the typed time is Tokyo's.
  test.use({ timezoneId: "Europe/London" });

  test("an owner sets the account's zone, and Compose reads a scheduled time in it", async ({ page }) => {
    const owner = { email: "owner@zone-schedule.tumira.test", password: "e2e zone schedule password" };
    cli([
      "accounts:create",
      "--name",
      "Zone Schedule Ltd",
      "--currency",
      "USD",
      "--balance",
      "1.00",
      "--sender",
      "ZONES",
      "--owner-email",
      owner.email,
      "--owner-password",
      owner.password,
    ]);
    await signIn(page, owner);

    await page.goto("/dashboard/settings");
    const zone = page.getByLabel("Account time zone");
    await expect(zone).toHaveValue("Africa/Harare");
    await zone.selectOption("Asia/Tokyo");
    await page.getByRole("button", { name: "Save time zone" }).click();
    await expect(page.getByText("Time zone set to Asia/Tokyo")).toBeVisible();
    await page.reload();
    await expect(page.getByLabel("Account time zone")).toHaveValue("Asia/Tokyo");

    // 09:30 in Tokyo, three days from now.
    const day = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Tokyo", year: "numeric", month: "2-digit", day: "2-digit" }).format(
      new Date(Date.now() + 3 * 86_400_000),
    );
    const [year, month, date] = day.split("-").map(Number);
    const expected = Date.UTC(year, month - 1, date, 9, 30) - 9 * 3_600_000;

    await page.goto("/dashboard/compose");
    await expect(page.getByTestId("compose-time-zone")).toHaveText("Asia/Tokyo");
    await page.getByLabel("Message").fill("Your appointment is confirmed.");
    await page.getByLabel("Phone number").fill("0771234599");
    await page.getByLabel("Send at").fill(`${day}T09:30`);
    const local = page.getByTestId("compose-send-at-local");
    await expect(local).toContainText("Europe/London");
    expect(Date.parse((await local.locator("time").getAttribute("datetime"))!)).toBe(expected);

    await page.getByRole("button", { name: "Send message" }).click();
    await expect(page).toHaveURL(/\/dashboard\/messages\/[0-9a-f-]{36}$/);
    const scheduled = page.getByTestId("message-send-at").locator("time");
    await expect(scheduled).toHaveCount(1);
    expect(Date.parse((await scheduled.getAttribute("datetime"))!)).toBe(expected);
  });

  test("Compose says how a time the account zone's clocks skip or repeat is read", async ({ page }) => {
    const owner = { email: "owner@zone-dst.tumira.test", password: "e2e zone dst password" };
    const account = ["--name", "Zone DST Ltd", "--currency", "USD", "--balance", "1.00", "--sender", "ZONED"];
    cli(["accounts:create", ...account, "--owner-email", owner.email, "--owner-password", owner.password]);
    await signIn(page, owner);
    await page.goto("/dashboard/settings");
    await page.getByLabel("Account time zone").selectOption("Europe/London");
    await page.getByRole("button", { name: "Save time zone" }).click();
    await expect(page.getByText("Time zone set to Europe/London")).toBeVisible();

    // London's clocks go forward at 01:00 on March's last Sunday and back at 02:00 on October's.
    const year = new Date().getUTCFullYear() + 1;
    const lastSunday = (month: number) => {
      const last = new Date(Date.UTC(year, month, 0));
      return new Date(Date.UTC(year, month - 1, last.getUTCDate() - last.getUTCDay())).toISOString().slice(0, 10);
    };
    await page.goto("/dashboard/compose");
    const sendAt = page.getByLabel("Send at");
    const clockChange = page.getByTestId("compose-send-at-clock-change");
    await sendAt.fill(`${lastSunday(3)}T01:30`);
    await expect(clockChange).toHaveText("01:30 does not exist in Europe/London that day (the clocks go forward): it is read as 02:30.");
    await sendAt.fill(`${lastSunday(10)}T01:30`);
    await expect(clockChange).toHaveText("01:30 happens twice in Europe/London that day (the clocks go back): the first is used.");
    await sendAt.fill(`${lastSunday(10)}T09:00`);
    await expect(clockChange).toHaveCount(0);
    // The browser is in London too: no second reading of the time.
    await expect(page.getByTestId("compose-send-at-local")).toHaveCount(0);
  });

  test("a developer reads the account's zone and cannot change it", async ({ page }) => {
    await signIn(page, fixtures().developer);
    await page.goto("/dashboard/settings");
    await expect(page.getByLabel("Account time zone")).toBeDisabled();
    await expect(page.getByText("Only the account's owners change it.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Save time zone" })).toHaveCount(0);
  });
});
