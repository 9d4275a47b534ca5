import fs from "node:fs";
import path from "node:path";
import { expect, type Locator, type Page } from "@playwright/test";
import type { E2eFixtures, E2eUser } from "./global-setup";

export function fixtures(): E2eFixtures {
  return JSON.parse(fs.readFileSync(path.join("test-results", "e2e-fixtures.json"), "utf8"));
}

export async function signIn(page: Page, user: E2eUser): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard/);
  await expect(page.getByTestId("user-email")).toHaveText(user.email);
}

/** A full-page screenshot under test-results/screenshots, for people to look at. */
export async function snap(page: Page, name: string): Promise<void> {
  await page.waitForLoadState("networkidle");
  await page.screenshot({ path: path.join("test-results", "screenshots", `${name}.png`), fullPage: true });
}

/** A phone's and a wide laptop's width: no page may scroll sideways at either. */
export const WIDTHS = [
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
];

/** Visits `path` at each width, keeps a screenshot `<name>-<width>` of it, and says what scrolls sideways. */
export async function overflowAt(page: Page, path: string, name: string): Promise<string[]> {
  const problems: string[] = [];
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    await snap(page, `${name}-${size.width}`);
    if (scrollWidth > innerWidth) problems.push(`${path} at ${size.width} px is ${scrollWidth} px wide`);
  }
  return problems;
}

/** Fails on any page of `path` that scrolls sideways at a phone's or a laptop's width; back to the usual size after. */
export async function expectNoOverflow(page: Page, path: string, name: string): Promise<void> {
  const problems = await overflowAt(page, path, name);
  await page.setViewportSize({ width: 1366, height: 900 });
  expect(problems).toEqual([]);
}

/** Opens the Keys page's create dialog (its button reads "Create your first key" on an empty list). */
export async function openCreateKeyDialog(page: Page): Promise<Locator> {
  await page.goto("/dashboard/keys");
  await page
    .getByRole("button", { name: /^Create (your first )?key$/ })
    .first()
    .click();
  return page.getByTestId("create-key-dialog");
}

/** Creates a key through the dashboard and returns its secret as the dialog shows it once. */
export async function createKeyInDashboard(page: Page, name: string, { test = false } = {}): Promise<string> {
  const dialog = await openCreateKeyDialog(page);
  await dialog.getByLabel("Name").fill(name);
  if (test) await dialog.getByLabel(/Test key/).check();
  await dialog.getByRole("button", { name: "Create key" }).click();
  const shown = page.getByTestId("new-key-dialog");
  await expect(shown.getByTestId("key-warning")).toContainText("You will not see it again");
  const token = await shown.getByTestId("new-key-token").inputValue();
  expect(token).toMatch(test ? /^tmr_test_/ : /^tmr_live_/);
  return token;
}

/** Closes the key dialog: at once after Copy was pressed, else through its confirmation. */
export async function closeKeyDialog(page: Page, { copied = false } = {}): Promise<void> {
  const shown = page.getByTestId("new-key-dialog");
  await shown.getByRole("button", { name: "Done" }).click();
  if (!copied) await shown.getByRole("button", { name: "Close, I copied it" }).click();
  await expect(shown).toBeHidden();
}

/** The id and body of the next server action request a page makes (to replay it as another user). */
export function captureServerAction(page: Page): Promise<{ actionId: string; body: string; url: string }> {
  return new Promise((resolve) => {
    const listener = (request: import("@playwright/test").Request) => {
      const actionId = request.headers()["next-action"];
      if (request.method() === "POST" && actionId) {
        page.off("request", listener);
        resolve({ actionId, body: request.postData() ?? "", url: request.url() });
      }
    };
    page.on("request", listener);
  });
}
