import { execFileSync } from "node:child_process";
import { expect, test } from "@playwright/test";
import { fixtures, signIn, snap } from "./fixtures";
import { cli } from "./global-setup";

const NUMBER = "+263780000900";
const HANDSET = "+263771230900";

test("an admin finds an account by name on the Accounts page and assigns it an inbound number from its row", async ({ page }) => {
  const { admin } = fixtures();
  await signIn(page, admin);
  await page.goto("/dashboard/admin");
  const search = page.getByRole("search");
  await search.getByLabel("Name").fill("e2e lt");
  await search.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/[?&]name=e2e\+lt/);
  await expect(page.getByTestId("account-row")).toHaveCount(1);
  await page.getByTestId("account-row").getByRole("button", { name: "Assign a number to E2E Ltd" }).click();
  const dialog = page.getByTestId("assign-number-dialog");
  await expect(dialog).toContainText("Assign a number to E2E Ltd");
  await dialog.getByLabel("Number or short code").fill("0780 000 900");
  await dialog.getByRole("button", { name: "Assign" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("toast")).toContainText(`${NUMBER} assigned to E2E Ltd`);
  await expect(page.getByTestId("number-row").filter({ hasText: NUMBER })).toContainText("E2E Ltd");
  // The carrier in the dashboard's words, as the owner's Inbox names it.
  await expect(page.getByTestId("number-row").filter({ hasText: NUMBER })).toContainText("All carriers");
});

test("releasing an inbound number asks first, saying where replies to it go after", async ({ page }) => {
  const { admin, owner } = fixtures();
  const shared = "+263780000960";
  const holder = cli(["accounts:create", "--name", "Econet Number Holder", "--currency", "USD", "--balance", "1.00", "--sender", "HOLDER"]);
  cli(["numbers:assign", "--account", owner.accountId, "--number", shared]);
  cli(["numbers:assign", "--account", String(holder.id), "--number", shared, "--operator", "econet"]);
  await signIn(page, admin);
  await page.goto("/dashboard/admin");
  const rows = page.getByTestId("number-row").filter({ hasText: shared });
  await expect(rows).toHaveCount(2);
  const dialog = page.getByTestId("release-number-dialog");

  // The carrier's own assignment: its replies fall back to the all-carrier one. Cancel changes nothing.
  await rows
    .filter({ hasText: "Econet Number Holder" })
    .getByRole("button", { name: `Release ${shared} (Econet)` })
    .click();
  await expect(dialog).toContainText(`Release ${shared} on Econet from Econet Number Holder?`);
  await expect(dialog).toContainText(`Replies to ${shared} over Econet then go to E2E Ltd, which holds the number on all carriers.`);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await page.reload();
  await expect(rows).toHaveCount(2);

  // The all-carrier one: Econet's replies still go to the holder there, the other carriers' to no account.
  await rows
    .filter({ hasText: "E2E Ltd" })
    .getByRole("button", { name: `Release ${shared} (all carriers)` })
    .click();
  await expect(dialog).toContainText(`Release ${shared} on all carriers from E2E Ltd?`);
  await expect(dialog).toContainText(`Replies to ${shared} still go over Econet to Econet Number Holder, which holds it on that carrier.`);
  await expect(dialog).toContainText(`Replies to ${shared} over NetOne and Telecel then reach no account: they are stored unrouted`);
  await expect(dialog).toContainText("a STOP among them changes no opt-out list");
  await dialog.getByRole("button", { name: "Release number" }).click();
  await expect(page.getByTestId("toast")).toContainText(`${shared} released from E2E Ltd`);
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText("Econet Number Holder");
});

test("a simulated inbound message reaches the owner's inbox, in a conversation with what was sent", async ({ page }) => {
  const { owner } = fixtures();
  const key = cli(["keys:create", "--account", owner.accountId, "--name", "inbox sandbox", "--test"]);
  const simulated = await page.request.post("/api/v1/inbound/simulate", {
    headers: { authorization: `Bearer ${String(key.token)}` },
    data: { from: HANDSET, to: NUMBER, message: "Is my order ready?" },
  });
  expect(simulated.status()).toBe(202);

  await signIn(page, owner);
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Inbox" }).click();
  await expect(page.getByTestId("inbound-numbers")).toContainText(NUMBER);
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("conversation-link").filter({ hasText: HANDSET })).toHaveCount(1, { timeout: 1000 });
  }).toPass();
  // It came through the sandbox: a test message, badged in the list and in the conversation.
  await expect(page.getByTestId("conversation-link").filter({ hasText: HANDSET })).toContainText("Test");
  await page.getByTestId("conversation-link").filter({ hasText: HANDSET }).click();
  await expect(page.getByTestId("conversation-in")).toContainText("Is my order ready?");
  await expect(page.getByTestId("conversation-in").filter({ hasText: "Is my order ready?" })).toContainText("Test");
  await snap(page, "inbox-conversation");

  // On a phone the chosen conversation comes before the list of conversations, not below it.
  await page.setViewportSize({ width: 390, height: 844 });
  const conversationTop = (await page.getByTestId("conversation-card").boundingBox())!.y;
  const listTop = (await page.getByTestId("conversations").boundingBox())!.y;
  expect(conversationTop).toBeLessThan(listTop);
  await snap(page, "inbox-conversation-390");
});

test("an owner simulates a reply from the Inbox's sandbox and reads it in the conversation", async ({ page }) => {
  const { owner } = fixtures();
  await signIn(page, owner);
  await page.goto("/dashboard/inbox");
  const form = page.getByTestId("simulate-reply-form");
  await form.getByLabel("From (a handset)").fill("12");
  await form.getByRole("button", { name: "Simulate a reply" }).click();
  await expect(page.getByTestId("simulate-from-error")).toBeVisible();
  await form.getByLabel("From (a handset)").fill("0712 000 900");
  // Spaces and line breaks alone are refused as blank, under the field, as the API refuses them.
  await form.getByLabel("Message").fill("   \n  \n ");
  await form.getByRole("button", { name: "Simulate a reply" }).click();
  // The first submit's errors go only once this one is answered: then the message's alone is back.
  await expect(page.getByTestId("simulate-from-error")).toBeHidden();
  await expect(page.getByTestId("simulate-message-error")).toHaveText("cannot be blank");
  await form.getByLabel("Message").fill("Ndatenda, see you at 3");
  await form.getByRole("button", { name: "Simulate a reply" }).click();
  await expect(async () => {
    await page.goto(`/dashboard/inbox?with=${encodeURIComponent("+263712000900")}`);
    await expect(page.getByTestId("conversation-in")).toContainText("Ndatenda, see you at 3", { timeout: 1000 });
  }).toPass();
});

test("support sees inbound metadata without the text", async ({ page }) => {
  const { support } = fixtures();
  await signIn(page, support);
  await page.goto("/dashboard/inbox");
  const row = page.getByTestId("inbound-row").filter({ hasText: HANDSET });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("E2E Ltd");
  await expect(row).toContainText("1 GSM-7");
  await expect(page.getByText("Is my order ready?")).toHaveCount(0);
  await expect(page.getByTestId("unrouted-toggle")).toHaveCount(0);
});

test("a delivered outbound message reads Delivered in its conversation, as in the Messages list", async ({ page }) => {
  const { owner } = fixtures();
  const key = cli(["keys:create", "--account", owner.accountId, "--name", `inbox delivered ${Date.now()}`]);
  const sent = await page.request.post("/api/v1/sms", {
    headers: { authorization: `Bearer ${String(key.token)}` },
    data: { to: HANDSET, message: "Your order is on its way", from: "E2E" },
  });
  expect(sent.status()).toBe(202);
  const id: string = (await sent.json()).id;

  await signIn(page, owner);
  await expect(async () => {
    await page.goto(`/dashboard/messages?id=${id}`);
    await expect(page.getByTestId("message-row").locator(".status-badge")).toHaveText("Delivered", { timeout: 1000 });
  }).toPass();
  await page.goto(`/dashboard/inbox?with=${encodeURIComponent(HANDSET)}`);
  const outbound = page.getByTestId("conversation-out").filter({ hasText: "Your order is on its way" });
  await expect(outbound.locator(".status-badge")).toHaveText("Delivered");
});

test("an admin reads a message to a number no account holds, with its text, and is pointed to where numbers are assigned", async ({
  page,
}) => {
  const unassigned = "+263780000961";
  // A handset writes to the number over the simulator's Econet bind, as `npm run smsc -- mo` does.
  execFileSync(
    process.execPath,
    ["dist/smsc.js", "mo", "--from", "+263771230961", "--to", unassigned, "--message", "Is this the Harare shop?"],
    { env: { ...process.env, HOST: "127.0.0.1", SMSC_SIMULATOR_PORT: process.env.E2E_SMSC_PORT, LOG_LEVEL: "warn" } },
  );
  await signIn(page, fixtures().admin);
  await page.goto("/dashboard/inbox");
  await page.getByTestId("unrouted-toggle").click();
  await expect(page.getByRole("heading", { name: "Unrouted inbound messages" })).toBeVisible();
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole("row").filter({ hasText: unassigned })).toContainText("Is this the Harare shop?", { timeout: 1000 });
  }).toPass();
  await page.locator("main").getByRole("link", { name: "Accounts", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/admin$/);
  await expect(page.getByRole("button", { name: "Assign a number to E2E Ltd" })).toBeVisible();
});

test("an owner pages to an older conversation and finds one by a number typed in local form", async ({ page }) => {
  const owner = { email: "owner@many-conversations.tumira.test", password: "e2e many conversations password" };
  const account = cli([
    ...["accounts:create", "--name", "Many Conversations", "--currency", "USD", "--balance", "1.00"],
    ...["--owner-email", owner.email, "--owner-password", owner.password],
  ]);
  const accountNumber = "+263780000970";
  cli(["numbers:assign", "--account", String(account.id), "--number", accountNumber]);
  const key = cli(["keys:create", "--account", String(account.id), "--name", "many conversations", "--test"]);
  const simulate = async (from: string, message: string) => {
    const simulated = await page.request.post("/api/v1/inbound/simulate", {
      headers: { authorization: `Bearer ${String(key.token)}` },
      data: { from, to: accountNumber, message },
    });
    expect(simulated.status()).toBe(202);
  };
  const oldest = "+263771231000";
  const listed = page.getByTestId("conversation-link");

  // The oldest conversation is stored first, then 52 newer ones push it past the first page of 50.
  await simulate(oldest, "The first of many");
  await signIn(page, owner);
  await expect(async () => {
    await page.goto("/dashboard/inbox");
    await expect(listed.filter({ hasText: oldest })).toHaveCount(1, { timeout: 1000 });
  }).toPass();
  for (let index = 1; index <= 52; index++) await simulate(`+2637712310${String(index).padStart(2, "0")}`, `Newer ${index}`);
  await expect(async () => {
    await page.goto("/dashboard/inbox");
    await expect(listed).toHaveCount(50, { timeout: 1000 });
    await expect(listed.filter({ hasText: oldest })).toHaveCount(0, { timeout: 1000 });
  }).toPass();

  const pages = page.getByRole("navigation", { name: "Pages" });
  await pages.getByRole("link", { name: "Older" }).click();
  await expect(listed.filter({ hasText: oldest })).toHaveCount(1);
  await expect(listed).toHaveCount(3);
  await expect(pages.getByRole("link", { name: "Older" })).toHaveCount(0);
  await listed.filter({ hasText: oldest }).click();
  await expect(page.getByTestId("conversation-in")).toContainText("The first of many");
  // The list stays on the page the conversation was opened from.
  await expect(listed.filter({ hasText: oldest })).toHaveCount(1);
  await pages.getByRole("link", { name: "Newest" }).click();
  await expect(listed).toHaveCount(50);
  await expect(listed.filter({ hasText: oldest })).toHaveCount(0);

  // Found by its local form from the newest page, where it is not listed.
  const find = page.getByRole("search");
  await find.getByLabel("Number or sender").fill("0771 231 000");
  await find.getByRole("button", { name: "Find" }).click();
  await expect(page).toHaveURL(/with=%2B263771231000/);
  await expect(page.getByTestId("conversation-in")).toContainText("The first of many");

  await find.getByLabel("Number or sender").fill("0771 239 999");
  await find.getByRole("button", { name: "Find" }).click();
  await expect(page.getByTestId("inbox-find-none")).toHaveText("No messages from +263771239999.");
  await find.getByLabel("Number or sender").fill("12");
  await find.getByRole("button", { name: "Find" }).click();
  await expect(page.getByTestId("inbox-find-error")).toHaveText('Number or sender: "12" is not a phone number, short code or sender name');
});
