import { expect, test } from "@playwright/test";
import { cli } from "./global-setup";
import { expectNoOverflow, signIn, snap } from "./fixtures";

// The test data switch: test keys and what they sent are shown apart from the live ones, the choice
// survives a reload, a banner says so on every page, and no page scrolls sideways in either view.
test("the test data switch shows test keys and their messages apart from the live ones", async ({ page, request }) => {
  test.setTimeout(120_000);
  const owner = { email: "owner@sandbox.tumira.test", password: "e2e sandbox owner password" };
  const accountId = String(
    cli([
      ...["accounts:create", "--name", "Sandbox Co", "--currency", "USD", "--balance", "20.00", "--sender", "SANDBOX"],
      ...["--owner-email", owner.email, "--owner-password", owner.password],
    ]).id,
  );
  const liveKey = cli(["keys:create", "--account", accountId, "--name", "Live server"]);
  const testKey = cli(["keys:create", "--account", accountId, "--name", "Sandbox laptop", "--test"]);
  const send = async (token: unknown, message: string): Promise<string> => {
    const response = await request.post("/api/v1/sms", {
      headers: { authorization: `Bearer ${token}` },
      data: { to: "+263771110001", message, from: "SANDBOX" },
    });
    expect(response.status()).toBe(202);
    return ((await response.json()) as { id: string }).id;
  };
  const liveId = await send(liveKey.token, "Live order confirmation");
  const testId = await send(testKey.token, "Sandbox trial message");

  await signIn(page, owner);
  await page.goto("/dashboard/messages");
  const rows = page.getByTestId("message-row");
  await expect(rows).toHaveCount(1);
  await expect(page.locator(`[data-message-id="${liveId}"]`)).toBeVisible();
  await expect(page.getByTestId("test-data-banner")).toHaveCount(0);
  const switchInSidebar = page.getByRole("switch", { name: "Test data" }).first();
  await expect(switchInSidebar).toHaveAttribute("aria-checked", "false");

  await switchInSidebar.click();
  await expect(page.getByTestId("test-data-banner")).toBeVisible();
  await expect(page.locator(`[data-message-id="${testId}"]`)).toBeVisible();
  await expect(rows).toHaveCount(1);
  await expect(page.getByText("Sandbox trial message")).toBeVisible();
  await expect(page.getByText("Live order confirmation")).toHaveCount(0);

  // The choice is kept: a reload and every other page stay in the test view.
  await page.reload();
  await expect(page.getByTestId("test-data-banner")).toBeVisible();
  await expect(page.locator(`[data-message-id="${testId}"]`)).toBeVisible();
  await expect(page.locator(`[data-message-id="${liveId}"]`)).toHaveCount(0);
  const exported = await page.request.get("/api/dashboard/messages/export");
  const csv = await exported.text();
  expect(csv).toContain(testId);
  expect(csv).not.toContain(liveId);

  await page.goto("/dashboard/keys");
  await expect(page.getByTestId("test-data-banner")).toBeVisible();
  await expect(page.locator('[data-testid="key-row"][data-key-name="Sandbox laptop"]')).toBeVisible();
  await expect(page.locator('[data-testid="key-row"][data-key-name="Live server"]')).toHaveCount(0);

  // A live message opened in the test view says where it is, with the switch.
  await page.goto(`/dashboard/messages/${liveId}`);
  await expect(page.getByText("This message is in the live data")).toBeVisible();
  await expect(page.getByTestId("message-body")).toHaveCount(0);

  for (const [path, name] of [
    ["/dashboard", "test-view-overview"],
    ["/dashboard/messages", "test-view-messages"],
    ["/dashboard/keys", "test-view-keys"],
    ["/dashboard/billing", "test-view-balance"],
  ] as const) {
    await expectNoOverflow(page, path, name);
    await expect(page.getByTestId("test-data-banner")).toBeVisible();
  }

  // Back to live from the banner's switch.
  await page.goto("/dashboard/messages");
  await page.getByTestId("test-data-banner").getByRole("switch", { name: "Test data" }).click();
  await expect(page.getByTestId("test-data-banner")).toHaveCount(0);
  await expect(page.locator(`[data-message-id="${liveId}"]`)).toBeVisible();
  await expect(page.locator(`[data-message-id="${testId}"]`)).toHaveCount(0);
  await page.goto("/dashboard/keys");
  await expect(page.locator('[data-testid="key-row"][data-key-name="Live server"]')).toBeVisible();
  await expect(page.locator('[data-testid="key-row"][data-key-name="Sandbox laptop"]')).toHaveCount(0);
  await snap(page, "live-view-keys");
});
