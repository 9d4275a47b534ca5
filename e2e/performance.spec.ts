import { expect, test } from "@playwright/test";
import { fixtures, signIn, snap } from "./fixtures";

// e2e/bench-results holds one real `npm run bench` run (BENCH_RESULTS_DIR in playwright.config.ts).
test("platform staff see the benchmark figures against the targets, as charts; account users do not", async ({ page, browser }) => {
  await signIn(page, fixtures().admin);
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Performance" }).click();
  await expect(page.getByRole("heading", { name: "Performance", exact: true })).toBeVisible();

  const checks = page.getByTestId("target-checks");
  await expect(checks.getByRole("row", { name: /Single send ≥ 1 × Kannel SQLite/ })).toBeVisible();
  await expect(checks.getByRole("row", { name: /Read ≥ 8,000 requests\/s PostgreSQL .* Met/ })).toBeVisible();
  for (const chart of ["chart-single-rate", "chart-single-p99", "chart-bulk", "chart-dispatch", "chart-read"]) {
    await expect(page.getByTestId(chart).locator(".recharts-bar-rectangle").first()).toBeVisible();
  }
  await expect(page.getByTestId("chart-single-rate").getByText("Kannel sendsms")).toBeVisible();
  // The 25 ms target is drawn even though every p99 of the run is below it.
  await expect(page.getByTestId("chart-single-p99").locator(".recharts-reference-line line")).toHaveCount(1);
  await snap(page, "performance");

  for (const [user, allowed] of [[fixtures().support, true], [fixtures().owner, false]] as const) {
    const context = await browser.newContext();
    const other = await context.newPage();
    await signIn(other, user);
    const response = await other.goto("/dashboard/performance");
    if (allowed) await expect(other.getByTestId("chart-dispatch")).toBeVisible();
    else expect(response?.status()).toBe(404);
    await context.close();
  }
});
