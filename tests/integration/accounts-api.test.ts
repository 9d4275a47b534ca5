// Account-scoped endpoints over real HTTP: balance and sender ids, the account's own only; any other
// account id answers the same 404 as an unknown one.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { approveSender } from "@/lib/senders/approve-sender";
import { createApiKey } from "@/lib/keys/create-api-key";
import { balanceSchema, senderIdSchema } from "@/lib/api/accounts/account-schemas";
import { envelopeSchema } from "@/lib/api/response-schemas";
import { expectKitError, seedAccount, useApiServer, type SeededAccount } from "../helpers/api-test-server";

const { api } = useApiServer();

let acme: SeededAccount;
let other: SeededAccount;

beforeAll(async () => {
  acme = await seedAccount({ name: "Acme", balance: 1_000_000n, senders: ["ACME"] });
  other = await seedAccount({ name: "Other", balance: 50_000n, senders: ["OTHER"] });
});

async function addMessage(accountId: string, charge: bigint, status: string, test = false) {
  const now = new Date();
  await db().message.create({
    data: {
      accountId,
      to: "+263771234567",
      body: "hi",
      senderId: "ACME",
      operator: "econet",
      charge,
      currency: "USD",
      segments: 1,
      encoding: "gsm7",
      status,
      test,
      nextAttemptAt: now,
      receivedAt: now,
    },
  });
}

const writeCounts = async () => ({
  senders: await db().senderId.count(),
  ledger: await db().ledgerEntry.count(),
  accounts: await db().account.findMany({ select: { id: true, balance: true }, orderBy: { id: "asc" } }),
});

describe("GET /api/v1/accounts/:account_id/balance", () => {
  it("200: available and held as integer ten-thousandths, with the currency", async () => {
    await addMessage(acme.accountId, 350n, "enqueued");
    await addMessage(acme.accountId, 700n, "processing");
    await addMessage(acme.accountId, 999n, "success");
    await addMessage(acme.accountId, 5_000n, "enqueued", true);
    const call = await api("GET", `/api/v1/accounts/${acme.accountId}/balance`, { token: acme.token });
    expect(call.status).toBe(200);
    const body = envelopeSchema(balanceSchema.strict()).strict().parse(call.body);
    expect(body.data).toEqual({ account_id: acme.accountId, available: 1_000_000, held: 1_050, currency: "USD" });
    expect(call.text).toContain('"available":1000000');
  });

  it("a test key reads the same account balance", async () => {
    const sandbox = await createApiKey({ accountId: other.accountId, name: "sandbox", mode: "test", actor: "test" });
    const call = await api("GET", `/api/v1/accounts/${other.accountId}/balance`, { token: sandbox.token });
    expect(call.body.data).toMatchObject({ available: 50_000, held: 0 });
  });
});

describe("sender ids", () => {
  it("GET lists the account's sender ids with status, approved and pending alike", async () => {
    await api("POST", `/api/v1/accounts/${acme.accountId}/sender-ids`, { token: acme.token, body: { sender_id: "PROMO" } });
    const call = await api("GET", `/api/v1/accounts/${acme.accountId}/sender-ids`, { token: acme.token });
    expect(call.status).toBe(200);
    const body = envelopeSchema(senderIdSchema.strict().array()).strict().parse(call.body);
    const byName = Object.fromEntries(body.data.map((sender) => [sender.sender_id, sender]));
    expect(Object.keys(byName).sort()).toEqual(["ACME", "PROMO"]);
    expect(byName.ACME).toMatchObject({ status: "approved", approved_at: expect.any(String) });
    expect(byName.PROMO).toMatchObject({ status: "pending", approved_at: null });
  });

  it("POST requests a sender id: 201, pending until an administrator approves it", async () => {
    const call = await api("POST", `/api/v1/accounts/${acme.accountId}/sender-ids`, { token: acme.token, body: { sender_id: " Alerts " } });
    expect(call.status).toBe(201);
    const { data } = envelopeSchema(senderIdSchema.strict()).strict().parse(call.body);
    expect(data).toMatchObject({ sender_id: "Alerts", status: "pending", approved_at: null });
    await approveSender({ accountId: acme.accountId, name: "Alerts", actor: "test" });
    const listed = await api("GET", `/api/v1/accounts/${acme.accountId}/sender-ids`, { token: acme.token });
    expect(listed.body.data.find((sender: { id: string }) => sender.id === data.id)).toMatchObject({
      status: "approved",
      approved_at: expect.any(String),
    });
  });

  it("409 CONFLICT naming sender_id for a sender id the account already has", async () => {
    const before = await writeCounts();
    const call = await api("POST", `/api/v1/accounts/${acme.accountId}/sender-ids`, { token: acme.token, body: { sender_id: "ACME" } });
    expectKitError(call, 409, "CONFLICT");
    expect(call.body.error.validation_errors).toEqual([{ field: "sender_id", description: "is already approved" }]);
    expect(await writeCounts()).toEqual(before);
  });

  it.each([
    [{}, "cannot be blank"],
    [{ sender_id: "  " }, "cannot be blank"],
    [{ sender_id: 12 }, "must be a string"],
    [{ sender_id: "WAYTOOLONGNAME" }, "must be 1-11 letters"],
    [{ sender_id: "'; DROP TABLE" }, "must be 1-11 letters"],
  ])("400 VALIDATION_ERROR naming sender_id for %j, writing nothing", async (body, description) => {
    const before = await writeCounts();
    const call = await api("POST", `/api/v1/accounts/${acme.accountId}/sender-ids`, { token: acme.token, body });
    expectKitError(call, 400, "VALIDATION_ERROR");
    expect(call.body.error.validation_errors).toHaveLength(1);
    expect(call.body.error.validation_errors[0].field).toBe("sender_id");
    expect(call.body.error.validation_errors[0].description).toContain(description);
    expect(await writeCounts()).toEqual(before);
  });

  it("400 BAD_REQUEST for a malformed JSON body", async () => {
    expectKitError(
      await api("POST", `/api/v1/accounts/${acme.accountId}/sender-ids`, { token: acme.token, body: "{" }),
      400,
      "BAD_REQUEST",
    );
  });
});

describe("account isolation", () => {
  const paths: [string, (accountId: string) => string, unknown][] = [
    ["GET", (id) => `/api/v1/accounts/${id}/balance`, undefined],
    ["GET", (id) => `/api/v1/accounts/${id}/sender-ids`, undefined],
    ["POST", (id) => `/api/v1/accounts/${id}/sender-ids`, { sender_id: "SNEAKY" }],
  ];

  it.each(paths)("%s another account's, an unknown or a non-UUID account id: the same 404, nothing written", async (method, path, body) => {
    const before = await writeCounts();
    const answers = [];
    for (const accountId of [other.accountId, crypto.randomUUID(), "not-a-uuid", other.accountId.toUpperCase()]) {
      const call = await api(method, path(accountId), { token: acme.token, body });
      expectKitError(call, 404, "NOT_FOUND");
      answers.push(call.body);
    }
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    expect(await writeCounts()).toEqual(before);
  });

  it("the account id is accepted in upper case for the key's own account", async () => {
    const call = await api("GET", `/api/v1/accounts/${acme.accountId.toUpperCase()}/balance`, { token: acme.token });
    expect(call.status).toBe(200);
    expect(call.body.data.account_id).toBe(acme.accountId);
  });

  it.each(paths)("%s without a key: 401 kit UNAUTHORIZED", async (method, path, body) => {
    expectKitError(await api(method, path(acme.accountId), { body }), 401, "UNAUTHORIZED");
  });
});
