import { expect, test } from "@playwright/test";
import { fixtures, signIn } from "./fixtures";

test("the server's refusals of the low-balance threshold are shown under the field", async ({ page }) => {
  await signIn(page, fixtures().owner);
  await page.goto("/dashboard/webhooks");
  const threshold = page.getByRole("textbox", { name: "Threshold" });
  const save = page.getByRole("button", { name: "Save threshold" });
  await threshold.fill("-5");
  await save.click();
  await expect(page.getByTestId("low-balance-threshold-error")).toHaveText("must be a positive amount");
  await expect(threshold).toHaveAttribute("aria-invalid", "true");
  await threshold.fill("abc");
  await save.click();
  await expect(page.getByTestId("low-balance-threshold-error")).toHaveText("must be an amount such as 10.00");
});

test("the server's refusals of an inbound number are shown under the field", async ({ page }) => {
  await signIn(page, fixtures().admin);
  await page.goto("/dashboard/admin");
  await page.getByRole("button", { name: "Assign a number to Other Co" }).click();
  const form = page.getByTestId("assign-number-form");
  await form.getByLabel("Number or short code").fill("abc");
  await form.getByRole("button", { name: "Assign" }).click();
  await expect(page.getByTestId("number-number-error")).toHaveText("must be an E.164 number or a short code of 3 to 8 digits");
  await form.getByLabel("Number or short code").fill(fixtures().ownerNumber);
  await form.getByRole("button", { name: "Assign" }).click();
  await expect(page.getByTestId("number-number-error")).toHaveText("is already assigned to another account");
});

test("a field's earlier server error goes once the field is edited, also when the browser's own check then stops the submit", async ({
  page,
}) => {
  const { owner, developer } = fixtures();
  await signIn(page, owner);
  await page.goto("/dashboard/members");
  await page.getByRole("button", { name: "Add member" }).click();
  const dialog = page.getByTestId("add-member-dialog");
  await dialog.getByLabel("Email").fill(developer.email);
  await dialog.getByRole("button", { name: "Add member" }).click();
  await expect(page.getByTestId("member-email-error")).toHaveText("is already a member of this account");
  await dialog.getByLabel("Email").fill("not an email");
  await dialog.getByRole("button", { name: "Add member" }).click();
  await expect(dialog.getByLabel("Email")).toHaveJSProperty("validity.valid", false);
  await expect(page.getByTestId("member-email-error")).toBeHidden();
  await dialog.getByRole("button", { name: "Cancel" }).click();

  await page.goto("/dashboard/webhooks");
  const endpointForm = page.getByTestId("add-webhook-endpoint");
  await endpointForm.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.getByTestId("endpoint-url-error")).toHaveText("cannot be blank");
  await endpointForm.getByLabel("URL").fill("not a url");
  await endpointForm.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.getByTestId("endpoint-url-error")).toBeHidden();
});

test("an amount's earlier error in the credit dialog goes once the amount is fixed, the blank reason stopping the submit", async ({
  page,
}) => {
  await signIn(page, fixtures().admin);
  await page.goto("/dashboard/admin");
  await page.getByRole("button", { name: "Credit Other Co" }).click();
  const credit = page.getByTestId("credit-dialog");
  await credit.getByLabel(/Amount/).fill("abc");
  await credit.getByLabel("Reason").fill("Bank transfer 1");
  await credit.getByRole("button", { name: "Review credit" }).click();
  await expect(credit.getByTestId("credit-amount-error")).toBeVisible();
  await credit.getByLabel(/Amount/).fill("12.5");
  await credit.getByLabel("Reason").fill("");
  await credit.getByRole("button", { name: "Review credit" }).click();
  await expect(credit.getByTestId("credit-amount-error")).toBeHidden();
  await expect(credit.getByTestId("credit-confirmation")).toBeHidden();
});
