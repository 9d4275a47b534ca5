import { expect, test, type Page } from "@playwright/test";
import { cli } from "./global-setup";
import { closeKeyDialog, createKeyInDashboard, fixtures, overflowAt, signIn, snap, WIDTHS } from "./fixtures";

// Every page, filled with the longest data people type, at a phone's and a wide laptop's width:
// nothing may scroll sideways, and each page is kept as a screenshot under test-results/screenshots.
const LONG_KEY = "Nightly reconciliation worker for the Harare and Bulawayo warehouses, production";
const LONG_EMAIL = "operations.team.leads.for.harare.region@example.tz"; // 50 characters
const LONG_ACCOUNT = "Mutare Agricultural Cooperative Society and Associated Transport Enterprises (Private) Limited";
const LONG_WEBHOOK = `https://hooks.example.test/${"tumira-delivery-receipts-".repeat(8)}end`;

/** The overflow screenshots are named overflow-<page>-<width>. */
function overflowOf(page: Page, path: string, name: string): Promise<string[]> {
  return overflowAt(page, path, `overflow-${name}`);
}

test("no page scrolls sideways at 390 px or 1440 px with long names, emails and ids", async ({ page, browser, request }) => {
  test.setTimeout(240_000);
  expect(LONG_EMAIL).toHaveLength(50);
  const { owner, admin } = fixtures();
  cli([
    "accounts:create",
    ...["--name", LONG_ACCOUNT, "--currency", "USD", "--balance", "123456789.1234", "--sender", "LONGNAMES"],
    ...["--owner-email", `owner.of.the.longest.named.account@example.test`, "--owner-password", "a long enough password"],
  ]);

  await signIn(page, owner);
  const token = await createKeyInDashboard(page, LONG_KEY);
  await closeKeyDialog(page);
  await page
    .locator(`[data-testid="key-row"][data-key-name="${LONG_KEY}"]`)
    .getByRole("button", { name: `Roll ${LONG_KEY}` })
    .click();
  await page.getByTestId("roll-dialog").getByLabel("Grace period for the old key").selectOption("7d");
  await page.getByTestId("roll-dialog").getByRole("button", { name: "Roll key" }).click();
  await closeKeyDialog(page);

  await page.goto("/dashboard/members");
  await page.getByRole("button", { name: "Add member" }).click();
  await page.getByTestId("add-member-dialog").getByLabel("Email").fill(LONG_EMAIL);
  await page.getByTestId("add-member-dialog").getByRole("button", { name: "Add member" }).click();
  const added = page.getByTestId("member-added-dialog");
  await expect(added).toBeVisible();
  await page.setViewportSize(WIDTHS[0]);
  const dialogBox = await added.boundingBox();
  const passwordBox = await added.getByTestId("member-password").boundingBox();
  expect(dialogBox && passwordBox && passwordBox.x + passwordBox.width <= dialogBox.x + dialogBox.width).toBe(true);
  await snap(page, "overflow-member-password-390");
  await added.getByRole("button", { name: "Done" }).click();

  const sent = await request.post("/api/v1/sms", {
    headers: { authorization: `Bearer ${token}` },
    data: {
      to: "+263771230003",
      message: `${"Supercalifragilisticexpialidocious".repeat(4)} ${"x".repeat(200)}`,
      from: "E2E",
      webhook_url: LONG_WEBHOOK,
    },
  });
  // The rolled key still works during its grace period.
  expect(sent.status()).toBe(202);
  const messageId = ((await sent.json()) as { id: string }).id;

  // A pending top-up request with the longest reference, unbroken, on the balance page and the admins' queue.
  await page.goto("/dashboard/billing");
  await page.getByLabel(/^Amount/).fill("123456789.1234");
  await page.getByLabel("Payment reference").fill(`FNB${"7".repeat(97)}`);
  await page.getByLabel("Note (optional)").fill("Transfer-from-the-Harare-head-office-account-".repeat(3));
  await page.getByRole("button", { name: "Request top-up" }).click();
  await expect(page.getByTestId("top-up-row").first().getByTestId("top-up-state")).toHaveText("Pending");

  const problems: string[] = [];
  const ownerPages: [string, string][] = [
    ["/dashboard", "overview"],
    ["/dashboard/compose", "compose"],
    ["/dashboard/compose?mode=bulk", "compose-bulk"],
    ["/dashboard/messages", "messages"],
    [`/dashboard/messages/${messageId}`, "message-detail"],
    ["/dashboard/billing", "balance"],
    ["/dashboard/keys", "keys"],
    ["/dashboard/webhooks", "webhooks"],
    ["/dashboard/senders", "senders"],
    ["/dashboard/opt-outs", "opt-outs"],
    [`/dashboard/inbox?with=${encodeURIComponent("+263771230003")}`, "inbox-conversation"],
    ["/dashboard/members", "members"],
    ["/dashboard/settings", "settings"],
    ["/dashboard/api-reference", "api-reference"],
  ];
  for (const [path, name] of ownerPages) problems.push(...(await overflowOf(page, path, name)));

  // Row actions stay on screen: the rolled key's Roll and Revoke at both widths.
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await page.goto("/dashboard/keys");
    for (const button of await page.getByRole("button", { name: /^(Roll|Revoke) / }).all()) {
      const box = await button.boundingBox();
      if (box && box.x + box.width > size.width)
        problems.push(`a key's ${await button.textContent()} button is off screen at ${size.width} px`);
    }
  }

  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  await signIn(adminPage, admin);
  const adminPages: [string, string][] = [
    ["/dashboard/admin", "admin"],
    ["/dashboard/support", "support"],
    [`/dashboard/support?q=${messageId.slice(0, 8)}`, "support-lookup"],
    ["/dashboard/support?sender=E2E", "support-sender"],
    ["/dashboard/top-ups", "top-ups"],
    [`/dashboard/messages/${messageId}`, "message-detail-platform"],
  ];
  for (const [path, name] of adminPages) problems.push(...(await overflowOf(adminPage, path, name)));
  await adminContext.close();

  const signedOut = await browser.newContext();
  problems.push(...(await overflowOf(await signedOut.newPage(), "/login", "login")));
  await signedOut.close();

  expect(problems).toEqual([]);
});

test("the Messages table keeps each row's Cancel in view and every number on one line at 1280 px and 1024 px", async ({ page }) => {
  const { owner } = fixtures();
  const token = String(cli(["keys:create", "--account", owner.accountId, "--name", `table widths ${Date.now()}`]).token);
  // Scheduled, so each row has its Cancel and its longest status ("Scheduled for …").
  const sendAt = new Date(Date.now() + 2 * 86_400_000).toISOString();
  for (const to of ["+263731234567", "+263712345678"]) {
    const sent = await page.request.post("/api/v1/sms", {
      headers: { authorization: `Bearer ${token}` },
      data: { to, message: `Scheduled for tomorrow 10:00 Harare ${"and a longer body ".repeat(4)}`, from: "E2E", send_at: sendAt },
    });
    expect(sent.status()).toBe(202);
  }
  await signIn(page, owner);
  const problems: string[] = [];
  for (const width of [1280, 1024]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/dashboard/messages?status=created");
    await page.waitForLoadState("networkidle");
    await snap(page, `messages-table-${width}`);
    const table = await page.getByTestId("data-table").boundingBox();
    const right = Math.min(width, table!.x + table!.width);
    for (const button of await page.getByTestId("cancel-message").all()) {
      const box = await button.boundingBox();
      if (!box || box.x + box.width > right) problems.push(`a Cancel button is cut off at ${width} px`);
    }
    // Phone numbers and amounts: the text of each sits on one line.
    for (const cell of await page.locator('[data-testid="message-recipient"], td.tabular-nums').all()) {
      const wraps = await cell.evaluate((element) => {
        const range = document.createRange();
        range.selectNodeContents(element);
        const rects = [...range.getClientRects()];
        const lineHeight = Math.max(...rects.map((rect) => rect.height));
        return Math.max(...rects.map((rect) => rect.bottom)) - Math.min(...rects.map((rect) => rect.top)) > 1.5 * lineHeight;
      });
      if (wraps) problems.push(`"${await cell.textContent()}" wraps at ${width} px`);
    }
  }
  expect(problems).toEqual([]);
});

test("at 390 px a key's status shows beside its name, clear of the pinned actions column", async ({ page }) => {
  await signIn(page, fixtures().owner);
  await createKeyInDashboard(page, "Phone width check");
  await closeKeyDialog(page);
  await page.setViewportSize(WIDTHS[0]);
  const row = page.locator('[data-testid="key-row"][data-key-name="Phone width check"]');
  const status = row.getByText("Active", { exact: true }).filter({ visible: true });
  await expect(status).toBeInViewport();
  const statusBox = await status.boundingBox();
  const actionsBox = await row.getByRole("button", { name: "Roll Phone width check" }).boundingBox();
  // The pinned column's header hides the headers scrolled beneath it: its background is opaque.
  const pinnedHeader = page.locator("thead th.sticky").first();
  expect(await pinnedHeader.evaluate((element) => getComputedStyle(element).backgroundColor)).not.toMatch(/\/ 0?\.\d+\)|, 0?\.\d+\)$/);
  await snap(page, "overflow-keys-status-390");
  await page.setViewportSize({ width: 1366, height: 900 });
  expect(statusBox && actionsBox && statusBox.x + statusBox.width <= actionsBox.x).toBe(true);
});

test("at 390 px a revoked key's row has no empty pinned actions cell over its columns; an active key's keeps its actions", async ({
  page,
}) => {
  await signIn(page, fixtures().owner);
  for (const name of ["Revoked at phone width", "Active at phone width"]) {
    await createKeyInDashboard(page, name);
    await closeKeyDialog(page);
  }
  const revoked = page.locator('[data-testid="key-row"][data-key-name="Revoked at phone width"]');
  const active = page.locator('[data-testid="key-row"][data-key-name="Active at phone width"]');
  await revoked.getByRole("button", { name: "Revoke Revoked at phone width" }).click();
  await page.getByTestId("revoke-dialog").getByRole("button", { name: "Revoke Revoked at phone width" }).click();
  await expect(revoked).toContainText("Revoked");
  await page.setViewportSize(WIDTHS[0]);
  const pinnedCells = (row: typeof revoked) =>
    row.locator("td").evaluateAll((cells) => cells.filter((cell) => getComputedStyle(cell).position === "sticky").length);
  await snap(page, "overflow-keys-revoked-390");
  const pinned = { revoked: await pinnedCells(revoked), active: await pinnedCells(active) };
  await page.setViewportSize({ width: 1366, height: 900 });
  expect(pinned).toEqual({ revoked: 0, active: 1 });
});

test("a long pause reason on the Carriers page is clamped to two lines, and a button shows the whole of it, at 390 px and 1280 px", async ({
  page,
}) => {
  const reason =
    `Scheduled maintenance of the SMSC cluster. ${"The carrier asked for a full stop while it moves its binds. ".repeat(7)}`.trim();
  expect(reason.length).toBeLessThanOrEqual(500);
  await signIn(page, fixtures().admin);
  await page.goto("/dashboard/carriers");
  const netone = page.locator('[data-testid="carrier-row"][data-carrier="netone"]');
  await netone.getByRole("button", { name: "Pause netone" }).click();
  await page.getByTestId("pause-dialog").getByLabel("Reason").fill(reason);
  await page.getByTestId("pause-dialog").getByRole("button", { name: "Pause carrier" }).click();
  const shown = netone.getByTestId("carrier-pause-reason");
  await expect(shown).toContainText(reason);
  const showAll = netone.getByRole("button", { name: "Show the whole reason" });
  const clipped = () => shown.evaluate((element) => element.scrollHeight > element.clientHeight + 1);
  const pageScrollsSideways = () => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  const carriersTableOverflow = () =>
    page
      .getByTestId("data-table")
      .first()
      .evaluate((table) => table.scrollWidth - table.clientWidth);

  await page.setViewportSize(WIDTHS[0]);
  const lineHeight = await shown.evaluate((element) => parseFloat(getComputedStyle(element).lineHeight));
  const clampedHeight = (await shown.boundingBox())!.height;
  const clampedAtFirst = await clipped();
  // From the keyboard (as a tap would), the button shows the whole reason and says it is expanded.
  await showAll.focus();
  await page.keyboard.press("Enter");
  await expect(netone.getByRole("button", { name: "Show less" })).toHaveAttribute("aria-expanded", "true");
  const whole = { clipped: await clipped(), height: (await shown.boundingBox())!.height, sideways: await pageScrollsSideways() };
  await snap(page, "overflow-carriers-long-reason-390");
  // Expanded on a laptop the table still fits its card, and the reason stays whole across the page's polling.
  await page.setViewportSize({ width: 1280, height: 800 });
  const overflowAt1280 = await carriersTableOverflow();
  await snap(page, "overflow-carriers-long-reason-1280");
  await netone.getByRole("button", { name: "Show less" }).click();
  await expect(showAll).toHaveAttribute("aria-expanded", "false");
  const clampedAgain = await clipped();

  await page.setViewportSize({ width: 1366, height: 900 });
  await netone.getByRole("button", { name: "Resume netone" }).click();
  await page.getByTestId("resume-dialog").getByRole("button", { name: "Resume carrier" }).click();
  await expect(shown).toHaveCount(0);
  expect(clampedHeight).toBeLessThanOrEqual(2 * lineHeight + 1);
  expect({ clampedAtFirst, clampedAgain }).toEqual({ clampedAtFirst: true, clampedAgain: true });
  expect(whole).toEqual({ clipped: false, height: expect.any(Number), sideways: false });
  expect(whole.height).toBeGreaterThan(2 * lineHeight + 1);
  expect(overflowAt1280).toBeLessThanOrEqual(0);
});
