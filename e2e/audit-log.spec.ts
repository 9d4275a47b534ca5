import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { fixtures, signIn, snap } from "./fixtures";

test("an owner reads the account's audit log, filters it by action and actor, and exports it as CSV", async ({ page }) => {
  const { owner } = fixtures();
  await signIn(page, owner);
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Audit log" }).click();
  await expect(page.getByRole("heading", { name: "Audit log", level: 1 })).toBeVisible();
  // The account was created with the CLI when the test data was set up.
  const created = page.locator('[data-testid="audit-row"][data-action="account.created"]');
  await expect(created).toHaveCount(1);
  await expect(created).toContainText("the CLI");
  await snap(page, "audit-log");

  await page.getByLabel("Action").selectOption("account.created");
  await page.getByLabel("Actor").fill("cli");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/action=account.created/);
  const rows = page.getByTestId("audit-row");
  await expect(rows).toHaveCount(1);

  await page.getByLabel("Actor").fill("nobody-by-this-name@example.invalid");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText("No events match")).toBeVisible();

  await page.getByLabel("Actor").fill("");
  await page.getByRole("button", { name: "Apply" }).click();
  const download = page.waitForEvent("download");
  await page.getByTestId("audit-export").click();
  const csv = fs.readFileSync((await (await download).path())!, "utf8");
  const [header, ...lines] = csv.trim().split(/\r?\n/);
  expect(header).toBe("time,account,actor,action,target,details");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(",the CLI,account.created,");
});

test("a bad filter value is named, and a developer has no audit log", async ({ page, browser }) => {
  const { owner, developer } = fixtures();
  await signIn(page, owner);
  await page.goto("/dashboard/audit?from=2026-13-45&action=account.created");
  await expect(page.getByTestId("filter-problems")).toContainText("From:");
  // The export takes the filters the list applied: the bad day is left out, the action kept.
  await expect(page.getByTestId("audit-export")).toHaveAttribute("href", "/api/dashboard/audit/export?action=account.created");
  const download = page.waitForEvent("download");
  await page.getByTestId("audit-export").click();
  const csv = fs.readFileSync((await (await download).path())!, "utf8");
  expect(csv.trim().split(/\r?\n/)).toEqual(["time,account,actor,action,target,details", expect.stringContaining(",account.created,")]);

  const developerContext = await browser.newContext();
  const developerPage = await developerContext.newPage();
  await signIn(developerPage, developer);
  await expect(developerPage.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Audit log" })).toHaveCount(0);
  expect((await developerPage.request.get("/api/dashboard/audit/export")).status()).toBe(403);
  await developerContext.close();
});

test("a platform admin reads every account's events with the account named", async ({ page }) => {
  const { admin } = fixtures();
  await signIn(page, admin);
  await page.goto("/dashboard/audit");
  await expect(page.getByRole("columnheader", { name: "Account" })).toBeVisible();
  await expect(page.getByTestId("audit-row").first()).toBeVisible();
  await page.getByLabel("Action").selectOption("account.created");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.locator('[data-testid="audit-row"][data-action="account.created"]')).not.toHaveCount(0);
});
