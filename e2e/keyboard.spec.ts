import { expect, test, type Page } from "@playwright/test";
import { fixtures, openCreateKeyDialog, signIn } from "./fixtures";

function focusedInsideDialog(page: Page): Promise<boolean> {
  return page.evaluate(() => document.activeElement?.closest("dialog[open]") != null);
}

test("a Skip to content link comes first and takes the keyboard past the sidebar", async ({ page }) => {
  await signIn(page, fixtures().owner);
  await page.goto("/dashboard/compose");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Enter");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("tab", { name: "One recipient" })).toBeFocused();
});

test("Compose's tabs follow the arrow keys, Home and End, with the selected tab the one Tab stop", async ({ page }) => {
  await signIn(page, fixtures().owner);
  await page.goto("/dashboard/compose");
  const single = page.getByRole("tab", { name: "One recipient" });
  const bulk = page.getByRole("tab", { name: "Bulk send" });
  await expect(bulk).toHaveAttribute("tabindex", "-1");
  await single.focus();
  await page.keyboard.press("ArrowRight");
  await expect(bulk).toBeFocused();
  await expect(bulk).toHaveAttribute("aria-selected", "true");
  await expect(single).toHaveAttribute("tabindex", "-1");
  await page.keyboard.press("ArrowRight");
  await expect(single).toBeFocused();
  await expect(single).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("End");
  await expect(bulk).toBeFocused();
  await page.keyboard.press("Home");
  await expect(single).toBeFocused();
  await page.keyboard.press("ArrowLeft");
  await expect(bulk).toHaveAttribute("aria-selected", "true");
});

test("Tab and Shift+Tab stay inside an open dialog", async ({ page }) => {
  await signIn(page, fixtures().owner);
  const dialog = await openCreateKeyDialog(page);
  await expect(dialog.getByLabel("Name")).toBeFocused();
  const stops = await dialog.evaluate(
    (element) => element.querySelectorAll("a[href], button:not([disabled]), input:not([disabled]), select, textarea").length,
  );
  for (let press = 0; press <= stops; press++) {
    await page.keyboard.press("Tab");
    expect(await focusedInsideDialog(page), `after Tab ${press + 1}`).toBe(true);
  }
  for (let press = 0; press <= stops; press++) {
    await page.keyboard.press("Shift+Tab");
    expect(await focusedInsideDialog(page), `after Shift+Tab ${press + 1}`).toBe(true);
  }
});
