// The start-up check that this process's APP_SECRET opens the secrets stored at rest.
import { afterEach, describe, expect, it } from "vitest";
import { resetEnvForTests } from "@/lib/env";
import { checkAppSecret } from "@/lib/setup/check-app-secret";
import { createWebhookEndpoint } from "@/lib/webhooks/webhook-endpoints";
import { useTestDatabase } from "../helpers/test-database";
import { createSendingAccount } from "../helpers/delivery";

useTestDatabase();
const ownSecret = process.env.APP_SECRET;

afterEach(() => {
  if (ownSecret === undefined) delete process.env.APP_SECRET;
  else process.env.APP_SECRET = ownSecret;
  resetEnvForTests();
});

describe("checkAppSecret", () => {
  it("finds nothing to check before a secret is stored, then opens one stored under its APP_SECRET", async () => {
    expect(await checkAppSecret()).toBe("nothing-stored");
    const accountId = await createSendingAccount(1_000_000n, "Secret check");
    await createWebhookEndpoint({ accountId, url: "https://93.184.215.14/hooks", events: ["message.status"], actor: "test" });
    expect(await checkAppSecret()).toBe("ok");
  });

  it("reports a mismatch when another APP_SECRET encrypted every stored secret", async () => {
    const accountId = await createSendingAccount(1_000_000n, "Secret check");
    await createWebhookEndpoint({ accountId, url: "https://93.184.215.14/hooks", events: ["message.status"], actor: "test" });
    process.env.APP_SECRET = "another-app-secret-of-at-least-32-characters";
    resetEnvForTests();
    expect(await checkAppSecret()).toBe("mismatch");
  });
});
