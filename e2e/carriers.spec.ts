import { expect, test } from "@playwright/test";
import { fixtures, signIn, snap } from "./fixtures";
import { cli } from "./global-setup";

/** A key of an account of its own, so that these sends change no other spec's counts. */
function sendingKey(): string {
  const account = cli(["accounts:create", "--name", "Carrier Watch", "--currency", "USD", "--balance", "5.00", "--sender", "WATCH"]);
  return String(cli(["keys:create", "--account", String(account.id), "--name", "carriers"]).token);
}

test("an admin watches the carriers' binds and their roles, and pauses and resumes a carrier with a reason", async ({ page }) => {
  const { admin } = fixtures();
  await signIn(page, admin);
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Carriers" }).click();
  await expect(page.getByRole("heading", { name: "Carriers", level: 1 })).toBeVisible();
  await expect(page.getByTestId("carrier-row")).toHaveCount(3);

  // The server's dispatcher binds to its simulator and reports it; the page picks it up by polling.
  const telecel = page.locator('[data-testid="carrier-row"][data-carrier="telecel"]');
  await expect(telecel.getByTestId("carrier-state")).toHaveAttribute("data-state", "bound");
  // Econet has a primary and a standby (playwright.config.ts): both bound, the primary in use.
  const econetBinds = page.locator('[data-testid="bind-row"][data-carrier="econet"]');
  await expect(econetBinds).toHaveCount(2);
  await expect(econetBinds.first()).toContainText("127.0.0.1:");
  const primary = page.locator('[data-testid="bind-row"][data-carrier="econet"][data-role="primary"]');
  const standby = page.locator('[data-testid="bind-row"][data-carrier="econet"][data-role="standby"]');
  await expect(primary).toHaveAttribute("data-state", "bound");
  await expect(standby).toHaveAttribute("data-state", "bound");
  await expect(primary.getByTestId("bind-role")).toHaveText(/Primary\s*in use/);
  await expect(standby.getByTestId("bind-role")).toHaveText(/Standby\s*standing by/);
  await expect(page.locator('[data-testid="bind-row"][data-carrier="telecel"]').getByTestId("bind-role")).toHaveAttribute(
    "data-role",
    "primary",
  );
  await snap(page, "carriers");

  await telecel.getByRole("button", { name: "Pause Telecel", exact: true }).click();
  const pauseDialog = page.getByTestId("pause-dialog");
  await pauseDialog.getByLabel("Reason").fill("no");
  await pauseDialog.getByRole("button", { name: "Pause carrier" }).click();
  await expect(page.getByTestId("pause-reason-error")).toHaveText("say why, in a few words");
  await pauseDialog.getByLabel("Reason").fill("Telecel SMSC upgrade tonight");
  await pauseDialog.getByRole("button", { name: "Pause carrier" }).click();
  await expect(page.getByTestId("toast")).toContainText("Telecel paused");
  await expect(telecel.getByTestId("carrier-pause-reason")).toContainText("Telecel SMSC upgrade tonight");
  await expect(telecel.getByTestId("carrier-state")).toHaveAttribute("data-state", "paused");
  // The dispatcher follows within seconds and reports its bind paused.
  await expect(page.locator('[data-testid="bind-row"][data-carrier="telecel"]')).toHaveAttribute("data-state", "paused");

  // Sends to the paused carrier wait in its queue, counted per priority. One is never receipted (…0003).
  const awaitedBefore = Number(await telecel.getByTestId("carrier-receipts-awaited").textContent());
  const key = sendingKey();
  for (const [to, priority] of [
    ["+263733900003", "normal"],
    ["+263733900029", "normal"],
    ["+263733900039", "high"],
  ]) {
    const sent = await page.request.post("/api/v1/sms", {
      headers: { authorization: `Bearer ${key}` },
      data: { to, message: "Waiting out the pause", from: "WATCH", priority },
    });
    expect(sent.status()).toBe(202);
  }
  await expect(telecel.getByTestId("carrier-queue")).toHaveText("3");
  await expect(telecel.getByTestId("carrier-queue-normal")).toHaveText("2");
  await expect(telecel.getByTestId("carrier-queue-high")).toHaveText("1");
  await expect(telecel.getByTestId("carrier-first-in-line")).toHaveText(/^first waited \d+ s$/);
  // On a 1280 px laptop the carriers' table fits its card: nothing, the wait first in line included,
  // is hidden under the pinned actions.
  await page.setViewportSize({ width: 1280, height: 800 });
  const carriersTable = page.getByTestId("data-table").first();
  expect(await carriersTable.evaluate((table) => table.scrollWidth - table.clientWidth)).toBeLessThanOrEqual(0);
  await snap(page, "carriers-paused");
  // Every staff page carries the alert while the pause lasts.
  await page.goto("/dashboard/support");
  await expect(page.getByTestId("carrier-alert")).toContainText("Telecel is paused: Telecel SMSC upgrade tonight");
  await page.getByTestId("carrier-alert").getByRole("link", { name: "Carriers" }).click();

  await telecel.getByRole("button", { name: "Resume Telecel", exact: true }).click();
  const resumeDialog = page.getByTestId("resume-dialog");
  await expect(resumeDialog).toContainText("Telecel SMSC upgrade tonight");
  await resumeDialog.getByRole("button", { name: "Resume carrier" }).click();
  await expect(page.getByTestId("toast").last()).toContainText("Telecel resumed");
  await expect(telecel.getByTestId("carrier-pause-reason")).toHaveCount(0);
  await expect(telecel.getByTestId("carrier-state")).toHaveAttribute("data-state", "bound");
  await expect(page.getByTestId("carrier-alert")).toHaveCount(0);
  // Resumed, the queue empties; the message never receipted stays awaited.
  await expect(telecel.getByTestId("carrier-queue")).toHaveText("0");
  await expect(telecel.getByTestId("carrier-queue-high")).toHaveText("0");
  await expect(telecel.getByTestId("carrier-receipts-awaited")).toHaveText(String(awaitedBefore + 1));
});

test("pausing a carrier paused meanwhile says who paused it and why; resuming one resumed meanwhile says nothing changed", async ({
  page,
}) => {
  await signIn(page, fixtures().admin);
  await page.goto("/dashboard/carriers");
  const netone = page.locator('[data-testid="carrier-row"][data-carrier="netone"]');
  try {
    await netone.getByRole("button", { name: "Pause netone" }).click();
    const pauseDialog = page.getByTestId("pause-dialog");
    await pauseDialog.getByLabel("Reason").fill("Our own reason for a pause");
    // While the dialog is open, someone else pauses it.
    cli(["carriers:pause", "netone", "--reason", "NetOne asked for a stop"]);
    await pauseDialog.getByRole("button", { name: "Pause carrier" }).click();
    const toast = page.getByTestId("toast").last();
    await expect(toast).toContainText("NetOne was already paused by the CLI: “NetOne asked for a stop”");
    await expect(toast).toContainText("your reason was not recorded");
    await expect(page.getByTestId("toast").filter({ hasText: "NetOne paused:" })).toHaveCount(0);
    await expect(netone.getByTestId("carrier-pause-reason")).toContainText("NetOne asked for a stop");
    await expect(netone.getByTestId("carrier-pause-reason")).not.toContainText("Our own reason");

    await netone.getByRole("button", { name: "Resume netone" }).click();
    cli(["carriers:resume", "netone"]);
    await page.getByTestId("resume-dialog").getByRole("button", { name: "Resume carrier" }).click();
    await expect(page.getByTestId("toast").last()).toContainText("NetOne was not paused (resumed meanwhile): nothing changed");
    await expect(page.getByTestId("toast").filter({ hasText: "NetOne resumed" })).toHaveCount(0);
    await expect(netone.getByTestId("carrier-pause-reason")).toHaveCount(0);
  } finally {
    cli(["carriers:resume", "netone"]);
  }
});

test("support reads the Carriers page without pause or resume; an owner cannot see it", async ({ page, browser }) => {
  const { support, owner } = fixtures();
  await signIn(page, support);
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Carriers" }).click();
  await expect(page.getByTestId("carrier-row")).toHaveCount(3);
  await expect(page.locator('[data-testid="carrier-row"][data-carrier="econet"]').getByTestId("carrier-state")).toHaveAttribute(
    "data-state",
    "bound",
  );
  await expect(page.getByRole("button", { name: /^(Pause|Resume) / })).toHaveCount(0);
  expect((await page.request.get("/api/dashboard/carriers")).status()).toBe(200);

  const ownerContext = await browser.newContext();
  const ownerPage = await ownerContext.newPage();
  await signIn(ownerPage, owner);
  await expect(ownerPage.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Carriers" })).toHaveCount(0);
  expect((await ownerPage.goto("/dashboard/carriers"))?.status()).toBe(404);
  expect((await ownerPage.request.get("/api/dashboard/carriers")).status()).toBe(403);
  await ownerContext.close();
});
