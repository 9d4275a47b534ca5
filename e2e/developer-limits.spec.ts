import { expect, test, type Browser } from "@playwright/test";
import { captureServerAction, fixtures, signIn } from "./fixtures";
import type { E2eUser } from "./global-setup";

async function signedInPage(browser: Browser, user: E2eUser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, user);
  return page;
}

test("a developer cannot reach members or credit the balance, in the UI or by a direct request", async ({ browser, baseURL }) => {
  const { owner, developer, admin } = fixtures();
  const developerPage = await signedInPage(browser, developer);

  // The UI offers neither.
  const nav = developerPage.getByRole("navigation", { name: "Dashboard" });
  await expect(nav.getByRole("link", { name: "API keys" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Members" })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: "Accounts" })).toHaveCount(0);
  for (const path of ["/dashboard/members", "/dashboard/admin"]) {
    const response = await developerPage.goto(path);
    expect(response?.status()).toBe(404);
    await expect(developerPage.getByTestId("not-found")).toBeVisible();
  }
  await developerPage.goto("/dashboard/billing");
  await expect(developerPage.getByRole("button", { name: /Credit/ })).toHaveCount(0);

  // The server actions themselves refuse the developer: replay the owner's "add member" and the admin's "credit".
  const ownerPage = await signedInPage(browser, owner);
  await ownerPage.goto("/dashboard/members");
  await ownerPage.getByRole("button", { name: "Add member" }).click();
  await ownerPage.getByLabel("Email").fill("teammate@e2e.tumira.test");
  const addMember = captureServerAction(ownerPage);
  await ownerPage.getByTestId("add-member-dialog").getByRole("button", { name: "Add member" }).click();
  await expect(ownerPage.getByTestId("member-added-dialog")).toBeVisible();
  const captured = await addMember;

  const adminPage = await signedInPage(browser, admin);
  await adminPage.goto("/dashboard/admin");
  const accountRow = adminPage.locator('[data-testid="account-row"][data-account-name="E2E Ltd"]');
  await accountRow.getByRole("button", { name: "Credit E2E Ltd" }).click();
  await adminPage.getByLabel(/Amount/).fill("1.00");
  await adminPage.getByLabel("Reason").fill("Replay capture");
  await adminPage.getByRole("button", { name: "Review credit" }).click();
  const credit = captureServerAction(adminPage);
  await adminPage.getByRole("button", { name: "Credit USD 1.00" }).click();
  const capturedCredit = await credit;
  await expect(adminPage.getByTestId("toast")).toContainText("E2E Ltd credited");
  await adminPage.reload();
  const balanceBefore = await accountRow.getByTestId("account-balance").textContent();

  const replay = (action: { actionId: string; url: string }, body: string) =>
    developerPage.request.post(action.url, {
      headers: { "next-action": action.actionId, "content-type": "text/plain;charset=UTF-8", accept: "text/x-component", origin: baseURL! },
      data: body,
    });
  const memberReplay = await replay(captured, captured.body.replace("teammate@e2e.tumira.test", "intruder@e2e.tumira.test"));
  expect(await memberReplay.text()).toContain('"code":"FORBIDDEN"');
  const creditReplay = await replay(capturedCredit, capturedCredit.body.replace('"1.00"', '"999.00"'));
  expect(await creditReplay.text()).toContain('"code":"FORBIDDEN"');

  await ownerPage.reload();
  await expect(ownerPage.getByTestId("member-row").filter({ hasText: "teammate@e2e.tumira.test" })).toHaveCount(1);
  await expect(ownerPage.getByTestId("member-row").filter({ hasText: "intruder@e2e.tumira.test" })).toHaveCount(0);
  await adminPage.reload();
  await expect(accountRow.getByTestId("account-balance")).toHaveText(balanceBefore!);
});
