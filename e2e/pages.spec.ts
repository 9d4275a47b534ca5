import { expect, test } from "@playwright/test";
import { fixtures, signIn, snap } from "./fixtures";

// Every main page renders for the roles that use it; the screenshots are for people to look at.
const ownerPages = [
  { path: "/dashboard", heading: "Overview", name: "overview" },
  { path: "/dashboard/messages", heading: "Messages", name: "messages" },
  { path: "/dashboard/inbox", heading: "Inbox", name: "inbox" },
  { path: "/dashboard/billing", heading: "Balance", name: "balance" },
  { path: "/dashboard/senders", heading: "Sender IDs", name: "senders" },
  { path: "/dashboard/opt-outs", heading: "Opt-outs", name: "opt-outs-page" },
  { path: "/dashboard/webhooks", heading: "Webhooks", name: "webhooks" },
  { path: "/dashboard/password", heading: "Password", name: "password" },
  { path: "/dashboard/settings", heading: "Settings", name: "settings" },
  { path: "/dashboard/api-reference", heading: "API reference", name: "api-reference" },
];

test("every main page renders for an owner, at laptop and phone widths", async ({ page, baseURL }) => {
  await signIn(page, fixtures().owner);
  // Today's bar in the overview's chart, whichever specs ran before this one.
  const sent = await page.request.post("/api/dashboard/sends/bulk", {
    headers: { origin: baseURL!, "content-type": "application/json" },
    data: JSON.stringify({ to: ["+263772000950"], message: "A bar for the overview's chart", from: "E2E" }),
  });
  expect(sent.ok()).toBe(true);
  for (const { path, heading, name } of ownerPages) {
    await page.goto(path);
    await expect(page.getByRole("heading", { name: heading, exact: true })).toBeVisible();
    if (name === "overview") await expect(page.getByTestId("chart-messages").locator(".recharts-bar-rectangle").first()).toBeVisible();
    await snap(page, name);
  }
  expect(await page.getByTestId("api-operation").count()).toBeGreaterThanOrEqual(6);

  await page.goto("/dashboard/webhooks");
  await page.getByRole("button", { name: "Reveal" }).click();
  await expect(page.getByTestId("webhook-secret")).toHaveValue(/^whsec_[A-Za-z0-9+/=]{32}$/);

  await page.setViewportSize({ width: 390, height: 844 });
  for (const name of ["overview", "messages"]) {
    await page.goto(name === "overview" ? "/dashboard" : "/dashboard/messages");
    await expect(page.getByRole("button", { name: "Menu" })).toBeVisible();
    await snap(page, `${name}-phone`);
  }
  await page.getByRole("button", { name: "Menu" }).click();
  await expect(page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Compose" })).toBeVisible();
  await snap(page, "menu-phone");
});

test("a developer sees the webhooks page without the owner's secret controls", async ({ page }) => {
  await signIn(page, fixtures().developer);
  await page.goto("/dashboard/webhooks");
  await expect(page.getByText("Only account owners can reveal or rotate the secret.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Reveal" })).toHaveCount(0);

  // The low-balance threshold is read-only to a developer: Enter in it sends no change for the server to refuse.
  const actions: string[] = [];
  page.on("request", (request) => {
    if (request.headers()["next-action"]) actions.push(request.postData() ?? "");
  });
  await page.getByLabel("Threshold").press("Enter");
  // A request made after the Enter: had the Enter sent the change, it would have gone first.
  const refreshed = page.waitForResponse("**/api/dashboard/webhooks");
  await page.getByRole("button", { name: "Refresh" }).click();
  await refreshed;
  expect(actions).toEqual([]);
  await expect(page.getByTestId("toast")).toHaveCount(0);
});
