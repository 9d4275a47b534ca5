import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { fixtures, signIn } from "./fixtures";
import { MAX_WEBHOOK_ENDPOINTS } from "../lib/webhooks/limits";

type Post = { headers: Record<string, string>; body: string };

test("an owner adds a webhook endpoint, sees its secret once, sends a test event, sees the delivery, and rotates the secret once confirmed", async ({
  page,
}) => {
  const posts: Post[] = [];
  const receiver = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      posts.push({ headers: request.headers as Record<string, string>, body });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/tumira-events`;
  try {
    await signIn(page, fixtures().owner);
    await page.goto("/dashboard/webhooks");
    const form = page.getByTestId("add-webhook-endpoint");
    await form.getByLabel("URL").fill(url);
    await form.getByRole("button", { name: "Add endpoint" }).click();

    const dialog = page.getByTestId("endpoint-secret-dialog");
    const secret = await dialog.getByTestId("endpoint-secret").inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
    await dialog.getByRole("button", { name: "Done" }).click();
    await expect(dialog).toBeHidden();

    const endpoint = page.getByTestId("webhook-endpoint").filter({ hasText: url });
    await expect(endpoint).toHaveCount(1);
    await page.reload();
    expect(await page.content()).not.toContain(secret);

    await endpoint.getByRole("button", { name: "Send test event" }).click();
    await expect.poll(() => posts.length).toBeGreaterThan(0);
    const event = new Webhook(secret).verify(posts[0].body, posts[0].headers) as { type: string };
    expect(event.type).toBe("test");

    // The pending delivery's outcome shows by itself: the list is polled while a delivery is pending.
    const delivery = endpoint.getByTestId("webhook-endpoint-delivery").first();
    // In the dashboard's words, as a message's page reads the same delivery state.
    await expect(delivery).toContainText("Delivered");
    await expect(delivery).not.toContainText("succeeded");
    await expect(delivery).toContainText("test");
    await expect(delivery.getByTestId("webhook-endpoint-attempt")).toContainText("204");

    const rotateDialog = page.getByTestId("rotate-endpoint-secret-dialog");
    await endpoint.getByRole("button", { name: "Rotate secret" }).click();
    await expect(rotateDialog).toContainText("The old one keeps signing too for 24 hours");
    await rotateDialog.getByRole("button", { name: "Cancel" }).click();
    await expect(rotateDialog).toBeHidden();
    await expect(page.getByTestId("endpoint-secret-dialog")).toBeHidden();
    await expect(endpoint).not.toContainText("The previous secret also signs until");
    await endpoint.getByRole("button", { name: "Rotate secret" }).click();
    await rotateDialog.getByRole("button", { name: "Rotate secret" }).click();
    const rotated = await page.getByTestId("endpoint-secret-dialog").getByTestId("endpoint-secret").inputValue();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await page.getByTestId("endpoint-secret-dialog").getByRole("button", { name: "Done" }).click();
    await expect(endpoint).toContainText("The previous secret also signs until");
  } finally {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  }
});

test("an owner deletes an endpoint and rotates the per-send signing secret, each only once confirmed", async ({ page }) => {
  const url = "http://127.0.0.1:9/deleted-after-confirming";
  await signIn(page, fixtures().owner);
  await page.goto("/dashboard/webhooks");
  const form = page.getByTestId("add-webhook-endpoint");
  await form.getByLabel("URL").fill(url);
  await form.getByRole("button", { name: "Add endpoint" }).click();
  await page.getByTestId("endpoint-secret-dialog").getByRole("button", { name: "Done" }).click();

  const endpoint = page.getByTestId("webhook-endpoint").filter({ hasText: url });
  const deleteDialog = page.getByTestId("delete-endpoint-dialog");
  await endpoint.getByRole("button", { name: "Delete" }).click();
  await deleteDialog.getByRole("button", { name: "Cancel" }).click();
  await expect(deleteDialog).toBeHidden();
  await expect(endpoint).toHaveCount(1);
  await endpoint.getByRole("button", { name: "Delete" }).click();
  await deleteDialog.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("Endpoint deleted")).toBeVisible();
  await expect(endpoint).toHaveCount(0);

  const secret = page.getByTestId("webhook-secret");
  await page.getByRole("button", { name: "Reveal" }).click();
  // The mask starts with whsec_ too: wait for the secret itself.
  await expect(secret).toHaveValue(/^whsec_[A-Za-z0-9+/=]{32}$/);
  const before = await secret.inputValue();
  const rotateDialog = page.getByTestId("rotate-secret-dialog");
  await page.getByRole("button", { name: "Rotate", exact: true }).click();
  await rotateDialog.getByRole("button", { name: "Cancel" }).click();
  await expect(rotateDialog).toBeHidden();
  await expect(secret).toHaveValue(before);
  await page.getByRole("button", { name: "Rotate", exact: true }).click();
  await rotateDialog.getByRole("button", { name: "Rotate secret" }).click();
  await expect(page.getByText("Signing secret rotated; the old one no longer signs")).toBeVisible();
  await expect(secret).not.toHaveValue(before);
  await expect(secret).toHaveValue(/^whsec_[A-Za-z0-9+/=]{32}$/);
});

test("at the account's endpoint cap the form gives way to a note, and deleting one brings it back", async ({ page }) => {
  // The account of little money: no other spec adds endpoints to it.
  await signIn(page, fixtures().brokeOwner);
  await page.goto("/dashboard/webhooks");
  const form = page.getByTestId("add-webhook-endpoint");
  const endpoints = page.getByTestId("webhook-endpoint");
  for (let index = (await endpoints.count()) + 1; index <= MAX_WEBHOOK_ENDPOINTS; index++) {
    await form.getByLabel("URL").fill(`http://127.0.0.1:9/cap-${index}`);
    await form.getByRole("button", { name: "Add endpoint" }).click();
    await page.getByTestId("endpoint-secret-dialog").getByRole("button", { name: "Done" }).click();
    await expect(endpoints).toHaveCount(index);
  }
  await expect(page.getByTestId("webhook-endpoint-cap")).toContainText(`This account has ${MAX_WEBHOOK_ENDPOINTS} endpoints`);
  await expect(form).toHaveCount(0);

  await endpoints.first().getByRole("button", { name: "Delete" }).click();
  await page.getByTestId("delete-endpoint-dialog").getByRole("button", { name: "Delete" }).click();
  await expect(endpoints).toHaveCount(MAX_WEBHOOK_ENDPOINTS - 1);
  await expect(page.getByTestId("webhook-endpoint-cap")).toHaveCount(0);
  await expect(form).toBeVisible();
});
