import { expect, test, type Page } from "@playwright/test";
import { fixtures, signIn, snap } from "./fixtures";
import { cli } from "./global-setup";

// A handset no other spec writes from or sends to: the opt-out list is the shared owner account's.
const HANDSET = "+263778800950";

async function simulate(page: Page, message: string): Promise<void> {
  await page.goto("/dashboard/inbox");
  const form = page.getByTestId("simulate-reply-form");
  await form.getByLabel("From (a handset)").fill("0778 800 950");
  await form.getByLabel("To").selectOption(fixtures().ownerNumber);
  await form.getByLabel("Message").fill(message);
  await form.getByRole("button", { name: "Simulate a reply" }).click();
  await expect(page.getByText(`The simulator is sending it from ${HANDSET}`)).toBeVisible();
}

const optOutRow = (page: Page) => page.locator(`[data-testid="opt-out-row"][data-number="${HANDSET}"]`);

test("an inbound STOP from the Inbox sandbox opts the number out, compose refuses it, and START makes it sendable again", async ({
  page,
}) => {
  await signIn(page, fixtures().owner);
  await simulate(page, "STOP");

  // In the inbox, in the handset's conversation.
  await expect(async () => {
    await page.goto(`/dashboard/inbox?with=${encodeURIComponent(HANDSET)}`);
    await expect(page.getByTestId("conversation-in")).toContainText("STOP", { timeout: 1000 });
  }).toPass();

  // On the Opt-outs page, added by the keyword.
  await expect(async () => {
    await page.goto("/dashboard/opt-outs");
    await expect(optOutRow(page)).toContainText(`Reply "STOP"`, { timeout: 1000 });
  }).toPass();
  await snap(page, "opt-out-by-keyword");

  // Compose refuses it before sending.
  await page.goto("/dashboard/compose");
  await page.getByLabel("Message").fill("Our sale starts on Friday.");
  await page.getByLabel("Phone number").fill("0778800950");
  await expect(page.getByTestId("single-opted-out")).toContainText(`${HANDSET} is on your opt-out list`);
  await expect(page.getByRole("button", { name: "Send message" })).toBeDisabled();

  // START takes it off the list: sendable again.
  await simulate(page, "start");
  await expect(async () => {
    await page.goto("/dashboard/opt-outs");
    await expect(page.getByTestId("opt-out-change").first()).toContainText(HANDSET, { timeout: 1000 });
    await expect(page.getByTestId("opt-out-change").first()).toContainText(`Reply "START"`, { timeout: 1000 });
  }).toPass();
  await expect(optOutRow(page)).toHaveCount(0);
  await page.goto("/dashboard/compose");
  await page.getByLabel("Message").fill("Our sale starts on Friday.");
  await page.getByLabel("Phone number").fill("0778800950");
  await expect(page.getByTestId("single-cost")).toBeVisible();
  await expect(page.getByTestId("single-opted-out")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Send message" })).toBeEnabled();
});

test("an owner adds the account's own stop word, which a developer reads but cannot change", async ({ page }) => {
  await signIn(page, fixtures().owner);
  await page.goto("/dashboard/opt-outs");
  const form = page.getByTestId("opt-out-keywords-form");
  await form.getByLabel("Your stop words").fill("mira stop-now");
  await form.getByRole("button", { name: "Save keywords and replies" }).click();
  await expect(page.getByTestId("stop-keywords-error")).toContainText("STOP-NOW");
  await form.getByLabel("Your stop words").fill("mira, ima");
  await form.getByLabel("Your start words").fill("mira");
  await form.getByRole("button", { name: "Save keywords and replies" }).click();
  await expect(page.getByTestId("stop-keywords-error")).toContainText("MIRA cannot both stop and start");
  await form.getByLabel("Your start words").fill("tanga");
  await form.getByRole("button", { name: "Save keywords and replies" }).click();
  await expect(page.getByText("Keywords and replies saved")).toBeVisible();
  await page.reload();
  await expect(form.getByLabel("Your stop words")).toHaveValue("MIRA IMA");
  await expect(form.getByLabel("Your start words")).toHaveValue("TANGA");
  await expect(form.getByLabel("Send a confirmation reply when a keyword changes the list")).not.toBeChecked();

  await page.context().clearCookies();
  await signIn(page, fixtures().developer);
  await page.goto("/dashboard/opt-outs");
  await expect(form.getByLabel("Your stop words")).toHaveValue("MIRA IMA");
  await expect(form.getByRole("button", { name: "Save keywords and replies" })).toHaveCount(0);
});

test("an owner whose account has no approved sender id is told that no confirmation can be sent", async ({ page }) => {
  const owner = { email: `owner.${Date.now()}@no-sender.tumira.test`, password: "no sender owner password" };
  cli([
    ...["accounts:create", "--name", "No Sender Yet", "--currency", "USD", "--balance", "1.00"],
    ...["--owner-email", owner.email, "--owner-password", owner.password],
  ]);
  await signIn(page, owner);
  await page.goto("/dashboard/opt-outs");
  const form = page.getByTestId("opt-out-keywords-form");
  await expect(page.getByTestId("confirm-no-sender")).toHaveCount(0);
  await form.getByLabel("Send a confirmation reply when a keyword changes the list").check();
  await expect(page.getByTestId("confirm-no-sender")).toContainText("no approved sender id yet, so no confirmation can be sent");
  await expect(page.getByTestId("confirm-no-sender").getByRole("link", { name: "Sender IDs" })).toHaveAttribute(
    "href",
    "/dashboard/senders",
  );

  // An account with an approved sender id is not warned.
  await page.context().clearCookies();
  await signIn(page, fixtures().owner);
  await page.goto("/dashboard/opt-outs");
  await form.getByLabel("Send a confirmation reply when a keyword changes the list").check();
  await expect(page.getByTestId("confirm-no-sender")).toHaveCount(0);
});
