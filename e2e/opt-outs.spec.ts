import { expect, test } from "@playwright/test";
import { fixtures, signIn, snap } from "./fixtures";
import { cli } from "./global-setup";

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
    // A value longer than any phone number is reported with the rest, not a reason to refuse the file.
    buffer: Buffer.from(`phone\n0778800422\n+263778800421\nnot a number\n${"9".repeat(80)}\n`),
  });
  const report = page.getByTestId("opt-out-import-report");
  await expect(report).toContainText("1 added, 1 already listed, 2 not numbers");
  await expect(page.getByTestId("import-row")).toHaveCount(4);
  await expect(page.getByTestId("import-row").last()).toContainText("longer than 64 characters");
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

test("an import whose chunk fails to save ends reporting the failure and what was saved before it, not a success", async ({ page }) => {
  // An account of its own: 500 numbers on the shared account's list would push other specs' rows off its first page.
  const owner = { email: `owner.${Date.now()}@import-stop.tumira.test`, password: "import stop owner password" };
  cli([
    ...["accounts:create", "--name", "Import Stop Co", "--currency", "USD", "--balance", "1.00", "--sender", "STOPCO"],
    ...["--owner-email", owner.email, "--owner-password", owner.password],
  ]);
  await signIn(page, owner);
  await page.goto("/dashboard/opt-outs");
  // The second chunk goes without the session cookie, as after the session ended meanwhile: the server refuses it.
  let chunks = 0;
  await page.route("**/dashboard/opt-outs", async (route, request) => {
    if (request.method() !== "POST" || !request.headers()["next-action"] || ++chunks < 2) return route.continue();
    const cookies = await page.context().cookies();
    await page.context().clearCookies();
    const headers = await request.allHeaders();
    delete headers.cookie;
    const response = await route.fetch({ headers });
    await page.context().addCookies(cookies);
    return route.fulfill({ response });
  });
  const numbers = Array.from({ length: 600 }, (_, index) => `+2637155${String(index).padStart(5, "0")}`);
  await page.locator("#opt-out-csv").setInputFiles({
    name: "stops.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(`phone\n${numbers.join("\n")}\n`),
  });
  // Line 1 is the header: the first chunk is lines 2 to 501, the refused one starts at line 502.
  await expect(page.getByTestId("opt-out-import-stopped")).toContainText("Stopped at line 502: Sign in to continue.");
  await expect(page.getByTestId("opt-out-import-report")).toContainText("500 added, 0 already listed, 0 not numbers");
  await expect(page.getByTestId("toast")).toContainText(
    "Import stopped at line 502: Sign in to continue. 500 of 600 numbers were added before it",
  );
  await expect(page.getByTestId("toast").filter({ hasText: "numbers added" })).toHaveCount(0);
  expect(chunks).toBe(2);

  // What the report says was saved is on the list, and nothing after it.
  await page.unroute("**/dashboard/opt-outs");
  await page.reload();
  await expect(page.locator(`[data-testid="opt-out-row"][data-number="${numbers[499]}"]`)).toHaveCount(1);
  await expect(page.locator(`[data-testid="opt-out-row"][data-number="${numbers[500]}"]`)).toHaveCount(0);
  const exported = await (await page.request.get("/api/dashboard/opt-outs/export")).text();
  expect(exported.trim().split("\r\n")).toHaveLength(1 + 500);
});
