import fs from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { fixtures, signIn, snap } from "./fixtures";
import { cli } from "./global-setup";

// Three recipients the simulator delivers, one it refuses at submit (a number ending 0005).
const CSV = ["phone", "+263771000411", "0772000412", "0712000413", "0773000005"].join("\n");
const BODY = "Campaign report: the market opens at 8am.";

async function sendBulk(page: Page): Promise<string> {
  await page.goto("/dashboard/compose?mode=bulk");
  await page.getByLabel("Message").fill(BODY);
  await page.locator("#bulk-csv").setInputFiles({ name: "campaign.csv", mimeType: "text/csv", buffer: Buffer.from(CSV) });
  await page.getByRole("button", { name: "Check numbers" }).click();
  await expect(page.getByTestId("bulk-valid-count")).toHaveText("4");
  await page.getByRole("button", { name: "Send to 4 recipients" }).click();
  await expect(page.getByTestId("bulk-result")).toContainText("4 messages accepted");
  await page.getByTestId("bulk-result-link").click();
  await expect(page).toHaveURL(/\/dashboard\/messages\?bulk=/);
  return new URL(page.url()).searchParams.get("bulk")!;
}

test("a bulk send's report counts its outcomes, groups its failures and its ledger rows, and downloads its recipients", async ({
  page,
  browser,
}) => {
  await signIn(page, fixtures().owner);
  const bulkId = await sendBulk(page);

  await page.getByTestId("bulk-report-link").click();
  await expect(page).toHaveURL(`/dashboard/bulk/${bulkId}`);
  // Counts fill in as the carriers answer: the page is read again until every message is final.
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("bulk-count-delivered")).toHaveText("3", { timeout: 1000 });
    await expect(page.getByTestId("bulk-count-failed")).toHaveText("1", { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await expect(page.getByTestId("bulk-count-queued")).toHaveText("0");
  await expect(page.getByTestId("bulk-carrier")).toHaveCount(2);
  await expect(page.locator('[data-testid="bulk-carrier"][data-carrier="econet"]')).toContainText("Econet");
  const failure = page.getByTestId("bulk-failure");
  await expect(failure).toHaveCount(1);
  await expect(failure).toContainText("The carrier says the number is not valid");
  await expect(failure).toContainText("ESME_RINVDSTADR");
  await expect(page.getByTestId("bulk-body")).toHaveText(BODY);
  await expect(page.getByTestId("bulk-refunded")).not.toHaveText("USD 0.00");
  await expect(page.getByTestId("bulk-timeline").locator(".recharts-bar-rectangle").first()).toBeVisible();
  await snap(page, "bulk-report");
  // On a phone the report and the balance page fit the screen's width.
  await page.setViewportSize({ width: 390, height: 844 });
  for (const path of [`/dashboard/bulk/${bulkId}`, "/dashboard/billing"]) {
    await page.goto(path);
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    expect(scrollWidth, `${path} at 390 px`).toBeLessThanOrEqual(innerWidth);
  }
  await snap(page, "billing-grouped-phone");
  await page.goto(`/dashboard/bulk/${bulkId}`);
  await snap(page, "bulk-report-phone");
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto(`/dashboard/bulk/${bulkId}`);

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("recipients-csv").click()]);
  const lines = fs
    .readFileSync((await download.path())!, "utf8")
    .trimEnd()
    .split("\r\n");
  expect(lines[0]).toBe("message_id,to,carrier,outcome,reason,code,charge,refunded,currency,created_at,delivered_at");
  expect(lines).toHaveLength(5);
  const refused = lines.find((line) => line.includes("+263773000005"))!;
  expect(refused).toContain(",Econet,Failed,The carrier says the number is not valid,ESME_RINVDSTADR,");
  expect(lines.filter((line) => line.includes(",Delivered,"))).toHaveLength(3);

  // The balance page shows the bulk send as one row, linking back to the report.
  await page.goto("/dashboard/billing");
  const row = page.getByTestId("ledger-bulk-row").filter({ hasText: bulkId.slice(-8) });
  await expect(row).toContainText("4 messages, hold USD");
  await expect(page.getByTestId("ledger-row").filter({ hasText: bulkId })).toHaveCount(0);
  const [ledgerDownload] = await Promise.all([page.waitForEvent("download"), page.getByTestId("ledger-export-csv").click()]);
  const ledger = fs.readFileSync((await ledgerDownload.path())!, "utf8");
  expect(ledger.split("\r\n")[0]).toBe("id,created_at,kind,amount,balance_after,currency,message_id,bulk_id,reason,actor");
  expect(ledger.split("\r\n").filter((line) => line.includes(`,${bulkId},`) && line.includes(",release,"))).toHaveLength(1);
  await row.getByTestId("ledger-bulk").click();
  await expect(page).toHaveURL(`/dashboard/bulk/${bulkId}`);

  // Support reads the report without the body; another account's owner does not find it.
  const supportContext = await browser.newContext();
  const support = await supportContext.newPage();
  await signIn(support, fixtures().support);
  await support.goto(`/dashboard/bulk/${bulkId}`);
  await expect(support.getByTestId("bulk-count-delivered")).toHaveText("3");
  await expect(support.getByTestId("bulk-body")).toHaveCount(0);
  await expect(support.getByText(BODY)).toHaveCount(0);
  await supportContext.close();
  const strangerContext = await browser.newContext();
  const stranger = await strangerContext.newPage();
  await signIn(stranger, fixtures().brokeOwner);
  const response = await stranger.goto(`/dashboard/bulk/${bulkId}`);
  expect(response?.status()).toBe(404);
  const csv = await stranger.request.get(`/api/dashboard/bulk/${bulkId}/recipients`);
  expect(csv.status()).toBe(404);
  await strangerContext.close();
});

test("a bulk send scheduled for later reads as scheduled on its report, and Cancel the rest cancels its messages after saying how many", async ({
  page,
}) => {
  const { owner } = fixtures();
  const token = String(cli(["keys:create", "--account", owner.accountId, "--name", `scheduled bulk ${Date.now()}`]).token);
  const sendAt = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000 + 2 * 86_400_000);
  const accepted = await page.request.post("/api/v1/sms/bulk", {
    headers: { authorization: `Bearer ${token}` },
    data: { to: ["+263771000421", "0772000422", "0712000423"], message: "Scheduled campaign", from: "E2E", send_at: sendAt.toISOString() },
  });
  expect(accepted.status()).toBe(202);
  const bulkId: string = (await accepted.json()).data.bulk_id;

  await signIn(page, owner);
  await page.goto(`/dashboard/bulk/${bulkId}`);
  await expect(page.getByRole("main")).toContainText("scheduled for");
  await expect(page.locator(`time[datetime="${sendAt.toISOString()}"]`).first()).toBeVisible();
  await expect(page.getByTestId("bulk-count-scheduled")).toHaveText("3");
  await expect(page.getByTestId("bulk-count-queued")).toHaveText("0");

  await page.getByTestId("cancel-bulk").click();
  const dialog = page.getByTestId("cancel-bulk-dialog");
  await expect(dialog).toContainText("Cancel 3 messages?");
  await expect(dialog).toContainText("fails as CANCELLED and its charge is released");
  await dialog.getByRole("button", { name: "Cancel 3 messages" }).click();
  await expect(page.getByTestId("toast")).toContainText("3 messages cancelled; 0 messages already with a carrier or final, not cancelled");
  await expect(page.getByTestId("bulk-count-failed")).toHaveText("3");
  await expect(page.getByTestId("bulk-count-scheduled")).toHaveText("0");
  await expect(page.getByTestId("cancel-bulk")).toHaveCount(0);
  await snap(page, "bulk-report-cancelled");
});
