import { expect, test } from "@playwright/test";
import { fixtures, signIn, snap } from "./fixtures";

test("an admin watches the carriers' binds and pauses and resumes a carrier with a reason", async ({ page }) => {
  const { admin } = fixtures();
  await signIn(page, admin);
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Carriers" }).click();
  await expect(page.getByRole("heading", { name: "Carriers", level: 1 })).toBeVisible();
  await expect(page.getByTestId("carrier-row")).toHaveCount(3);

  // The server's dispatcher binds to its simulator and reports it; the page picks it up by polling.
  const telecel = page.locator('[data-testid="carrier-row"][data-carrier="telecel"]');
  await expect(telecel.getByTestId("carrier-state")).toHaveAttribute("data-state", "bound");
  await expect(page.locator('[data-testid="bind-row"][data-carrier="econet"]')).toContainText("127.0.0.1:");
  await snap(page, "carriers");

  await telecel.getByRole("button", { name: "Pause telecel" }).click();
  const pauseDialog = page.getByTestId("pause-dialog");
  await pauseDialog.getByLabel("Reason").fill("no");
  await pauseDialog.getByRole("button", { name: "Pause carrier" }).click();
  await expect(page.getByTestId("pause-reason-error")).toHaveText("say why, in a few words");
  await pauseDialog.getByLabel("Reason").fill("Telecel SMSC upgrade tonight");
  await pauseDialog.getByRole("button", { name: "Pause carrier" }).click();
  await expect(page.getByTestId("toast")).toContainText("Telecel paused");
  await expect(telecel.getByTestId("carrier-pause-reason")).toContainText("Telecel SMSC upgrade tonight");
  await expect(telecel.getByTestId("carrier-state")).toHaveAttribute("data-state", "paused");
  // The dispatcher follows within seconds and reports its bind paused.
  await expect(page.locator('[data-testid="bind-row"][data-carrier="telecel"]')).toHaveAttribute("data-state", "paused");
  // Every staff page carries the alert while the pause lasts.
  await page.goto("/dashboard/support");
  await expect(page.getByTestId("carrier-alert")).toContainText("Telecel is paused: Telecel SMSC upgrade tonight");
  await page.getByTestId("carrier-alert").getByRole("link", { name: "Carriers" }).click();

  await telecel.getByRole("button", { name: "Resume telecel" }).click();
  const resumeDialog = page.getByTestId("resume-dialog");
  await expect(resumeDialog).toContainText("Telecel SMSC upgrade tonight");
  await resumeDialog.getByRole("button", { name: "Resume carrier" }).click();
  await expect(page.getByTestId("toast").last()).toContainText("Telecel resumed");
  await expect(telecel.getByTestId("carrier-pause-reason")).toHaveCount(0);
  await expect(telecel.getByTestId("carrier-state")).toHaveAttribute("data-state", "bound");
  await expect(page.getByTestId("carrier-alert")).toHaveCount(0);
});

test("support reads the Carriers page without pause or resume; an owner cannot see it", async ({ page, browser }) => {
  const { support, owner } = fixtures();
  await signIn(page, support);
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Carriers" }).click();
  await expect(page.getByTestId("carrier-row")).toHaveCount(3);
  await expect(page.locator('[data-testid="carrier-row"][data-carrier="econet"]').getByTestId("carrier-state")).toHaveAttribute(
    "data-state",
    "bound",
  );
  await expect(page.getByRole("button", { name: /^(Pause|Resume) / })).toHaveCount(0);
  expect((await page.request.get("/api/dashboard/carriers")).status()).toBe(200);

  const ownerContext = await browser.newContext();
  const ownerPage = await ownerContext.newPage();
  await signIn(ownerPage, owner);
  await expect(ownerPage.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Carriers" })).toHaveCount(0);
  expect((await ownerPage.goto("/dashboard/carriers"))?.status()).toBe(404);
  expect((await ownerPage.request.get("/api/dashboard/carriers")).status()).toBe(403);
  await ownerContext.close();
});
