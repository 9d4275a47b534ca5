import { expect, test } from "@playwright/test";
import { fixtures, signIn, snap } from "./fixtures";

// A number no other spec sends to, since the list is the shared owner account's.
const NUMBER = "+263778800421";

test("a number opted out in the dashboard is refused in compose before sending, and the list exports as CSV", async ({ page }) => {
  await signIn(page, fixtures().developer);
  await page.goto("/dashboard/opt-outs");
  await page.getByLabel("Phone number").fill("077 880 0421");
  await page.getByRole("button", { name: "Add to opt-outs" }).click();
  const row = page.locator(`[data-testid="opt-out-row"][data-number="${NUMBER}"]`);
  await expect(row).toContainText(fixtures().developer.email);
  await expect(page.getByTestId("opt-out-change").first()).toContainText(NUMBER);
  await expect(page.getByTestId("opt-out-change").first()).toContainText("Opted out");

  await page.locator("#opt-out-csv").setInputFiles({
    name: "stops.csv",
    mimeType: "text/csv",
    buffer: Buffer.from("phone\n0778800422\n+263778800421\nnot a number\n"),
  });
  const report = page.getByTestId("opt-out-import-report");
  await expect(report).toContainText("1 added, 1 already listed, 1 not numbers");
  await expect(page.getByTestId("import-row")).toHaveCount(3);
  await snap(page, "opt-outs");

  const download = page.waitForEvent("download");
  await page.getByTestId("opt-outs-export").click();
  const csv = await (await download).createReadStream().then(async (stream) => {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  });
  expect(csv.split("\r\n")[0]).toBe("number,added_by,added_at");
  // Who added each number reads as on the page: the member's email, not a stored id.
  expect(csv).toContain(`${NUMBER},${fixtures().developer.email},`);
  expect(csv).toContain(`+263778800422,${fixtures().developer.email},`);

  await page.goto("/dashboard/compose");
  await page.getByLabel("Message").fill("Our offices close at 3pm today.");
  await page.getByLabel("Phone number").fill("0778800421");
  await expect(page.getByTestId("single-opted-out")).toContainText(`${NUMBER} is on your opt-out list`);
  await expect(page.getByRole("button", { name: "Send message" })).toBeDisabled();

  await page.goto("/dashboard/compose?mode=bulk");
  await page.getByLabel("Message").fill("Our offices close at 3pm today.");
  await page.getByLabel("Paste numbers").fill("0778800421\n0771000901");
  await page.getByRole("button", { name: "Check numbers" }).click();
  await expect(page.getByTestId("bulk-valid-count")).toHaveText("1");
  await expect(page.getByTestId("bulk-opted-out-count")).toHaveText("1");
  await expect(page.getByTestId("opted-out-row")).toContainText(NUMBER);
  await expect(page.getByRole("button", { name: "Send to 1 recipients" })).toBeEnabled();

  // Removed, the number can be sent to again.
  await page.goto("/dashboard/opt-outs");
  await row.getByRole("button", { name: `Remove ${NUMBER}` }).click();
  await expect(row).toHaveCount(0);
  await page.goto("/dashboard/compose");
  await page.getByLabel("Message").fill("Welcome back.");
  await page.getByLabel("Phone number").fill("0778800421");
  await expect(page.getByTestId("single-cost")).toBeVisible();
  await expect(page.getByTestId("single-opted-out")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Send message" })).toBeEnabled();
});
