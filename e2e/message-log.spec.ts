import fs from "node:fs";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { closeKeyDialog, createKeyInDashboard, fixtures, signIn, snap } from "./fixtures";

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
