import { expect, test } from "@playwright/test";
import { fixtures, signIn, snap } from "./fixtures";

test("support finds another account's message by id, read-only, and cannot send", async ({ page, baseURL }) => {
  const { support, otherAccount } = fixtures();
  await signIn(page, support);
  await expect(page).toHaveURL(/\/dashboard\/support/);
  const nav = page.getByRole("navigation", { name: "Dashboard" });
  await expect(nav.getByRole("link", { name: "Compose" })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: "API keys" })).toHaveCount(0);

  await page.getByLabel("Message id or phone number").fill(otherAccount.messageId);
  await page.getByRole("button", { name: "Search" }).click();
  const row = page.getByTestId("lookup-row");
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId("lookup-account")).toHaveText(otherAccount.name);
  await snap(page, "support-lookup");

  await row.getByRole("link", { name: otherAccount.messageId }).click();
  await expect(page.getByTestId("message-id")).toHaveText(otherAccount.messageId);
  await expect(page.getByTestId("message-account")).toContainText(otherAccount.name);
  await expect(page.getByText("Your parcel is ready for collection")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Redeliver" })).toHaveCount(0);
  await expect(page.getByText("The send that made this message set no webhook URL.", { exact: false })).toBeVisible();

  // The same search by the recipient's number in another format.
  await page.goto(`/dashboard/support?q=${encodeURIComponent("0772 000 111")}`);
  await expect(page.getByTestId("lookup-row")).toHaveCount(1);

  // No sending, in the UI or directly; no account data or key material either.
  expect((await page.goto("/dashboard/compose"))?.status()).toBe(404);
  expect((await page.goto("/dashboard/keys"))?.status()).toBe(404);
  const send = await page.request.post("/api/dashboard/sends/bulk", {
    headers: { origin: baseURL!, "content-type": "application/json" },
    data: { to: ["+263771234567"], message: "support must not send", from: "OTHER" },
  });
  expect(send.status()).toBe(403);
  expect((await page.request.get("/api/dashboard/messages")).status()).toBe(403);
});

test("support looks up a sender id within dates and sees the owners to contact, never the body", async ({ page }) => {
  const { support } = fixtures();
  await signIn(page, support);
  const today = new Date().toISOString().slice(0, 10);
  await page.getByLabel("Sender id").fill("OTHER");
  await page.getByLabel("From", { exact: true }).fill(today);
  await page.getByLabel("To", { exact: true }).fill(today);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/sender=OTHER/);
  const rows = page.getByTestId("lookup-row");
  await expect(rows.first()).toBeVisible();
  for (const row of await rows.all()) {
    await expect(row.getByTestId("lookup-sender")).toHaveText("OTHER");
    await expect(row.getByTestId("lookup-owners")).toContainText("owner@other.tumira.test");
  }
  await expect(page.getByText("Your parcel is ready for collection")).toHaveCount(0);
  for (const size of [
    { width: 390, height: 844 },
    { width: 1440, height: 900 },
  ]) {
    await page.setViewportSize(size);
    await page.reload();
    await page.waitForLoadState("networkidle");
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await snap(page, `support-lookup-sender-${size.width}`);
  }

  // A day before the message: nothing; dates alone are refused, named.
  await page.goto(`/dashboard/support?sender=other&until=2020-01-01`);
  await expect(page.getByTestId("lookup-row")).toHaveCount(0);
  // What to check next, as the lookup reads values: a sender id in any case, a number in any form.
  await expect(page.getByText("No message found")).toBeVisible();
  await expect(
    page.getByText(/\(any case, any way the number is written finds the same\); the dates, when set, are UTC days/),
  ).toBeVisible();
  await page.goto(`/dashboard/support?since=${today}`);
  await expect(page.getByTestId("filter-problems")).toContainText("add a message id, a phone number or a sender id");
});

test("support's lookup names a To date before the From date instead of finding nothing", async ({ page }) => {
  await signIn(page, fixtures().support);
  await page.getByLabel("Sender id").fill("OTHER");
  await page.getByLabel("From", { exact: true }).fill("2026-11-30");
  await page.getByLabel("To", { exact: true }).fill("2026-11-01");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByTestId("filter-problems")).toHaveText("To: 2026-11-01 is before From (2026-11-30); choose a day on or after it");
  await expect(page.getByLabel("To", { exact: true })).toHaveValue("2026-11-01");
  await expect(page.getByTestId("lookup-row")).toHaveCount(0);
});
