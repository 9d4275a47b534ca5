import { expect, test } from "@playwright/test";
import { fixtures, signIn } from "./fixtures";

// Harmless bad input to the dashboard's routes and server actions: a 4xx naming the problem, never a 500.
test("the bulk route refuses a null, malformed or foreign Origin with 403", async ({ page, baseURL }) => {
  await signIn(page, fixtures().owner);
  const body = JSON.stringify({ to: ["+263772000111"], message: "hi", from: "E2E" });
  for (const origin of ["null", "http://[", "not a url", "https://evil.example"]) {
    const response = await page.request.post("/api/dashboard/sends/bulk", {
      headers: { origin, "content-type": "application/json" },
      data: body,
    });
    expect(response.status(), origin).toBe(403);
    expect(await response.json()).toMatchObject({ code: "FORBIDDEN", error: "Cross-site request refused" });
  }
  const sameSite = await page.request.post("/api/dashboard/sends/bulk", {
    headers: { origin: baseURL!, "content-type": "text/plain" },
    data: body,
  });
  expect(sameSite.status()).toBe(415);
});

test("a server action from a foreign or null origin, over 1 MB or with a body Next cannot decode, gets a 4xx", async ({
  page,
  baseURL,
}) => {
  await signIn(page, fixtures().owner);
  const action = { "next-action": "0".repeat(42), "content-type": "text/plain;charset=UTF-8", accept: "text/x-component" };
  for (const origin of ["https://evil.example", "null", "http://["]) {
    const response = await page.request.post("/dashboard/keys", { headers: { ...action, origin }, data: "[]" });
    expect(response.status(), origin).toBe(403);
    expect(await response.json()).toMatchObject({ code: "FORBIDDEN" });
  }
  const large = await page.request.post("/dashboard/keys", {
    headers: { ...action, origin: baseURL! },
    data: JSON.stringify(["x".repeat(1024 * 1024 + 1)]),
  });
  expect(large.status()).toBe(413);
  expect(await large.json()).toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
  for (const data of ["null", "{not json", '["$Q1"]', '["$h1"]', '["$B1"]']) {
    const malformed = await page.request.post("/dashboard/keys", { headers: { ...action, origin: baseURL! }, data });
    expect(malformed.status(), data).toBe(400);
    expect(await malformed.json()).toMatchObject({ code: "BAD_REQUEST", error: expect.stringContaining("Malformed server action") });
  }
});
