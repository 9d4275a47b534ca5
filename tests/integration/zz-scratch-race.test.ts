import { beforeAll, expect, it } from "vitest";
import { seedAccount, useApiServer, type SeededAccount } from "../helpers/api-test-server";
const { api } = useApiServer();
let acme: SeededAccount;
beforeAll(async () => { acme = await seedAccount(); });
it("race", async () => {
  const calls = await Promise.all(Array.from({ length: 10 }, () => api("POST", `/api/v1/accounts/${acme.accountId}/sender-ids`, { token: acme.token, body: { sender_id: "RACE" } })));
  const keys = await Promise.all(Array.from({ length: 10 }, () => api("POST", `/api/v1/api-tokens`, { token: acme.token, body: { name: "r" }, headers: { "idempotency-key": "same" } })));
  expect([calls.map((c) => c.status).join(","), keys.map((c) => c.status).join(",")]).toEqual([]);
});
