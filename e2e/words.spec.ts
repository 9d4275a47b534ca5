import { expect, test } from "@playwright/test";
import { fixtures, signIn } from "./fixtures";

async function sendFromCompose(page: import("@playwright/test").Page, to: string): Promise<void> {
  await page.goto("/dashboard/compose");
  await page.getByLabel("Message").fill("Your meter reading is due.");
  await page.getByLabel("Phone number").fill(to);
  await page.getByRole("button", { name: "Send message" }).click();
  await expect(page).toHaveURL(/\/dashboard\/messages\/[0-9a-f-]{36}$/);
}

test("a carrier's refusal reads in plain words with its code beside it, and carriers are spelled as they spell themselves", async ({
  page,
}) => {
  await signIn(page, fixtures().owner);
  // The simulator refuses numbers ending 0005 with ESME_RINVDSTADR.
  await sendFromCompose(page, "0772340005");
  await expect(page.getByTestId("message-status")).toHaveText("Failed", { timeout: 30_000 });
  const response = page.getByTestId("message-operator-response");
  await expect(response.getByTestId("message-operator-response-plain")).toHaveText("The carrier says the number is not valid");
  await expect(response).toContainText("ESME_RINVDSTADR");

  await page.goto("/dashboard/compose");
  await page.getByLabel("Phone number").fill("0712345678");
  await expect(page.getByText("NetOne", { exact: true }).first()).toBeVisible();
  await expect(page.getByTestId("message-counter")).toContainText("NetOne");
  await expect(page.getByTestId("message-counter")).not.toContainText("Netone");

  await sendFromCompose(page, "0712340042");
  await expect(page.getByTestId("message-status")).toHaveText("Delivered", { timeout: 30_000 });
  const main = page.locator("main");
  await expect(main).toContainText("NetOne");
  // One vocabulary: no stored status word is shown beside the badge.
  await expect(main).not.toContainText(/\bsuccess\b|\bnetone\b|Netone/);
  await expect(main).toContainText("Delivered to the handset");
});

test("every page has a favicon, and an empty chart says it is empty", async ({ page, request }) => {
  const ico = await request.get("/favicon.ico");
  expect(ico.status()).toBe(200);
  expect(ico.headers()["content-type"]).toMatch(/icon/);
  const body = await ico.body();
  expect([...body.subarray(0, 4)]).toEqual([0, 0, 1, 0]);

  await signIn(page, fixtures().brokeOwner);
  const href = await page.locator('link[rel="icon"]').first().getAttribute("href");
  expect(href).toBeTruthy();
  const icon = await request.get(href!);
  expect(icon.status()).toBe(200);

  await page.goto("/dashboard");
  await expect(page.getByTestId("chart-messages").getByTestId("chart-empty")).toContainText("No messages in the last 14 days");
  await expect(page.getByTestId("chart-carriers").getByTestId("chart-empty")).toBeVisible();
  await expect(page.getByTestId("chart-messages").locator(".recharts-cartesian-axis")).toHaveCount(0);
});
