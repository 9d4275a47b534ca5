import fs from "node:fs";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { closeKeyDialog, createKeyInDashboard, fixtures, signIn, snap } from "./fixtures";
import { cli } from "./global-setup";

const CSV_HEADER =
  "id,to,message,sender_id,operator,charge,charge_currency,operator_response,received_at,status,created_at,delivered_at,bulk_id";

async function send(request: APIRequestContext, token: string, to: string, message: string): Promise<string> {
  const sent = await request.post("/api/v1/sms", { headers: { authorization: `Bearer ${token}` }, data: { to, message, from: "E2E" } });
  expect(sent.status()).toBe(202);
  return (await sent.json()).id;
}

test("an owner filters the message log by text, recipient and sender, reloads the view from its URL, and exports exactly its rows", async ({
  page,
}) => {
  const { owner } = fixtures();
  await signIn(page, owner);
  const token = await createKeyInDashboard(page, `Message log key ${Date.now()}`);
  await closeKeyDialog(page);
  const marker = `parcel${Date.now()}`;
  const toNetOne = await send(page.request, token, "0712345678", `Your ${marker} is ready, collect it today`);
  const toEconet = await send(page.request, token, "0771234567", `Your ${marker.toUpperCase()} has shipped`);
  await send(page.request, token, "0712345678", "Something else entirely");

  await page.goto("/dashboard/messages");
  await page.getByLabel("Message text").fill(marker);
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(new RegExp(`text=${marker}`));
  const rows = page.getByTestId("message-row");
  await expect(rows).toHaveCount(2);
  expect(await rows.evaluateAll((all) => all.map((row) => row.getAttribute("data-message-id")))).toEqual([toEconet, toNetOne]);

  await page.getByLabel("Recipient").fill("+263 71 234 5678");
  await page.getByLabel("Sender id").fill("E2E");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/sender=E2E/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute("data-message-id", toNetOne);
  await snap(page, "message-log-filtered");

  // The URL is the view: opened afresh, it shows the same rows with the same filters filled in.
  const url = page.url();
  await page.goto("/dashboard");
  await page.goto(url);
  await expect(page.getByLabel("Message text")).toHaveValue(marker);
  await expect(page.getByLabel("Sender id")).toHaveValue("E2E");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute("data-message-id", toNetOne);

  const download = page.waitForEvent("download");
  await page.getByTestId("export-csv").click();
  const csv = fs.readFileSync((await (await download).path())!, "utf8");
  const [header, ...lines] = csv.trimEnd().split("\r\n");
  expect(header).toBe(CSV_HEADER);
  expect(lines).toHaveLength(1);
  expect(lines[0].startsWith(`${toNetOne},'+263712345678,`)).toBe(true);
  expect(lines[0]).toContain(marker);

  // The same search over the API, with the key: the same message.
  const listed = await page.request.get(`/api/v1/sms?to=0712345678&from=E2E&limit=1000`, { headers: { authorization: `Bearer ${token}` } });
  expect(listed.status()).toBe(200);
  expect((await listed.json()).data.map((sms: { id: string }) => sms.id)).toContain(toNetOne);
});

test("a bad filter is named and not applied, and the export refuses it too", async ({ page }) => {
  const { owner } = fixtures();
  await signIn(page, owner);
  await page.goto("/dashboard/messages?reason=NOT_A_CODE&status=failed");
  await expect(page.getByTestId("filter-problems")).toContainText("Error reason:");
  await expect(page.getByLabel("Status")).toHaveValue("failed");
  const refused = await page.request.get("/api/dashboard/messages/export?reason=NOT_A_CODE");
  expect(refused.status()).toBe(400);
  expect((await refused.json()).fields).toEqual([{ field: "reason", description: expect.stringContaining("Error reason") }]);
  const exported = await page.request.get("/api/dashboard/messages/export?status=failed&reason=UNDELIV");
  expect(exported.status()).toBe(200);
  expect(exported.headers()["content-type"]).toBe("text/csv; charset=utf-8");
  expect((await exported.text()).split("\r\n")[0]).toBe(CSV_HEADER);
});

/** A live key of the owner's account, made with the CLI. */
function ownerKey(name: string): string {
  return String(cli(["keys:create", "--account", fixtures().owner.accountId, "--name", `${name} ${Date.now()}`]).token);
}

test("a scheduled send reads as scheduled in the list, its filter and its page, and Cancel asks before cancelling it", async ({ page }) => {
  const token = ownerKey("Scheduled sends");
  const sendAt = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000 + 2 * 86_400_000).toISOString();
  const sent = await page.request.post("/api/v1/sms", {
    headers: { authorization: `Bearer ${token}` },
    data: { to: "0771230077", message: "Scheduled for later", from: "E2E", send_at: sendAt, priority: "high", validity_period: 86_400 },
  });
  expect(sent.status()).toBe(202);
  const id: string = (await sent.json()).id;

  await signIn(page, fixtures().owner);
  await page.goto("/dashboard/messages");
  await page.getByLabel("Status").selectOption({ label: "Scheduled" });
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/status=created/);
  const row = page.locator(`[data-testid="message-row"][data-message-id="${id}"]`);
  await expect(row.locator(".status-badge")).toContainText("Scheduled for");
  await expect(row.locator(".status-badge time")).toHaveAttribute("datetime", sendAt);
  // The time column is the creation time, and says so.
  await expect(page.getByRole("columnheader", { name: "Created" })).toHaveCount(1);
  await expect(page.getByRole("columnheader", { name: "Sent" })).toHaveCount(0);

  // Cancel asks first, saying what it does; dismissed, nothing changes.
  await row.getByTestId("cancel-message").click();
  const dialog = page.getByTestId("cancel-message-dialog");
  await expect(dialog).toContainText("fails as CANCELLED and its charge is released");
  await dialog.getByRole("button", { name: "Cancel", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(row.locator(".status-badge")).toContainText("Scheduled for");

  // Its page shows every delivery choice: priority, the scheduled time and when it gives up.
  await row.getByTestId("message-recipient").click();
  await expect(page.getByTestId("message-status")).toContainText("Scheduled for");
  await expect(page.getByTestId("message-priority")).toHaveText(/^High/);
  await expect(page.getByTestId("message-send-at").locator("time")).toHaveAttribute("datetime", sendAt);
  await expect(page.getByTestId("message-validity")).toContainText("24 hours");
  await expect(page.getByTestId("message-validity").locator("time")).toHaveAttribute(
    "datetime",
    new Date(Date.parse(sendAt) + 86_400_000).toISOString(),
  );
  await snap(page, "message-scheduled");

  await page.goBack();
  await row.getByTestId("cancel-message").click();
  await dialog.getByRole("button", { name: "Cancel message" }).click();
  await expect(page.getByTestId("toast")).toContainText("Message cancelled; its charge is released");
  await expect(row).toHaveCount(0);
  const cancelled = await page.request.get(`/api/v1/sms/${id}`, { headers: { authorization: `Bearer ${token}` } });
  expect((await cancelled.json()).data).toMatchObject({ status: "failed", operator_response: "CANCELLED" });
});

test("a scheduled message's page is not polled while its time is far off, and cancels it, showing it failed CANCELLED with its charge released", async ({
  page,
  browser,
}) => {
  const token = ownerKey("Cancel from its page");
  const sent = await page.request.post("/api/v1/sms", {
    headers: { authorization: `Bearer ${token}` },
    data: {
      to: "0771230079",
      message: "Scheduled, then cancelled",
      from: "E2E",
      send_at: new Date(Date.now() + 3 * 3_600_000).toISOString(),
    },
  });
  expect(sent.status()).toBe(202);
  const id: string = (await sent.json()).id;

  // Support reads the page, and cannot cancel from it.
  const supportContext = await browser.newContext();
  const supportPage = await supportContext.newPage();
  await signIn(supportPage, fixtures().support);
  await supportPage.goto(`/dashboard/messages/${id}`);
  await expect(supportPage.getByTestId("message-status")).toContainText("Scheduled for");
  await expect(supportPage.getByTestId("cancel-message")).toHaveCount(0);
  await supportContext.close();

  await signIn(page, fixtures().owner);
  const fetches: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === `/api/dashboard/messages/${id}`) fetches.push(request.url());
  });
  await page.goto(`/dashboard/messages/${id}`);
  await expect(page.getByTestId("message-status")).toContainText("Scheduled for");
  await expect(page.getByText("Updating live…")).toHaveCount(0);
  // Three hours ahead, nothing but a cancel moves it: the page does not ask for it again.
  await page.waitForTimeout(5_000);
  expect(fetches).toEqual([]);

  await page.getByTestId("cancel-message").click();
  await page.getByTestId("cancel-message-dialog").getByRole("button", { name: "Cancel message" }).click();
  await expect(page.getByTestId("toast")).toContainText("Message cancelled; its charge is released");
  await expect(page.getByTestId("message-status")).toHaveText("Failed");
  await expect(page.getByTestId("message-operator-response")).toContainText("CANCELLED");
  await expect(page.getByTestId("message-charge")).toContainText("released back to the balance");
  await expect(page.getByTestId("message-ledger").locator("li")).toHaveCount(2);
  await expect(page.getByTestId("message-ledger")).toContainText("Release");
  await expect(page.getByTestId("timeline-released")).toContainText("back to the balance");
  await expect(page.getByTestId("cancel-message")).toHaveCount(0);
  await snap(page, "message-cancelled");

  // A message a carrier has is not cancellable: its page has no Cancel.
  const delivered = await send(page.request, token, "0712340042", "Sent at once");
  await page.goto(`/dashboard/messages/${delivered}`);
  await expect(page.getByTestId("message-status")).toHaveText("Delivered", { timeout: 30_000 });
  await expect(page.getByTestId("cancel-message")).toHaveCount(0);
});

test("a recipient that is not a number and a To day before the From day are named and not applied, as the API names them", async ({
  page,
}) => {
  const token = ownerKey("Bad filters");
  await send(page.request, token, "0771230078", "A message the list shows");
  await signIn(page, fixtures().owner);
  await page.goto("/dashboard/messages");
  await page.getByLabel("Recipient").fill("abc");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByTestId("filter-problems")).toHaveText('Recipient: "abc" is not a phone number');
  await expect(page.getByLabel("Recipient")).toHaveValue("abc");
  await expect(page.getByTestId("message-row").first()).toBeVisible();
  const api = await page.request.get("/api/v1/sms?to=abc", { headers: { authorization: `Bearer ${token}` } });
  expect(api.status()).toBe(400);
  expect((await api.json()).error.validation_errors).toEqual([{ field: "to", description: '"abc" is not a phone number' }]);
  const exported = await page.request.get("/api/dashboard/messages/export?recipient=abc");
  expect(exported.status()).toBe(400);

  const today = new Date().toISOString().slice(0, 10);
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  await page.getByLabel("Recipient").fill("");
  await page.getByLabel("From", { exact: true }).fill(today);
  await page.getByLabel("To", { exact: true }).fill(yesterday);
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByTestId("filter-problems")).toHaveText(`To: ${yesterday} is before From (${today}); choose a day on or after it`);
  await expect(page.getByLabel("To", { exact: true })).toHaveValue(yesterday);
  await expect(page.getByTestId("message-row").first()).toBeVisible();
});
