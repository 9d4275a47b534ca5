// The SMS endpoints over real HTTP against a server process (spec 4.1-4.3): every row of their status
// tables, the body shapes and field types (the Sms charge a string, bulk charges integers), the error
// shape of each endpoint (7.3), cross-account reads, test keys, and what a refused send leaves behind
// (nothing). The server runs with WEBHOOK_ALLOW_PRIVATE=false, as in production.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { getMessageDetail } from "@/lib/dashboard/get-message-detail";
import { setRate } from "@/lib/rates/rates";
import { revokeApiKey } from "@/lib/keys/revoke-api-key";
import { createApiKey } from "@/lib/keys/create-api-key";
import { MISSING_AUTHENTICATION } from "@/lib/api/auth/authenticate-api-key";
import { envelopeSchema } from "@/lib/api/response-schemas";
import { bulkSmsResultSchema } from "@/lib/api/sms/sms-schemas";
import { smsSchema } from "@/lib/messages/serialize-sms";
import { SMS_RETRIEVED } from "@/lib/api/sms/sms-routes";
import { getMessageForApiKey } from "@/lib/messages/get-message";
import type { SmsSource } from "@/lib/messages/serialize-sms";
import type { AppError } from "@/lib/errors";
import { expectKitError, expectLegacyError, seedAccount, useApiServer, type SeededAccount } from "../helpers/api-test-server";

const { api } = useApiServer({ WEBHOOK_ALLOW_PRIVATE: "false" });

const ECONET = 350n; // default platform rates (lib/rates/rates.ts)
const NETONE = 300n;
const TELECEL = 320n;

let acme: SeededAccount;
let other: SeededAccount;

beforeAll(async () => {
  acme = await seedAccount({ name: "Acme", balance: 10_000_000n, senders: ["ACME"] });
  other = await seedAccount({ name: "Other", balance: 10_000_000n, senders: ["OTHER"] });
});

/** Everything a send can write, to prove a refused one wrote nothing. */
async function footprint(accountId: string) {
  const account = await db().account.findUniqueOrThrow({ where: { id: accountId } });
  return {
    balance: account.balance,
    messages: await db().message.count({ where: { accountId } }),
    ledger: await db().ledgerEntry.count({ where: { accountId } }),
    bulkSends: await db().bulkSend.count({ where: { accountId } }),
    events: await db().messageEvent.count({ where: { message: { accountId } } }),
  };
}

const send = (token: string, body: unknown, headers?: Record<string, string>) => api("POST", "/api/v1/sms", { token, body, headers });
const bulk = (token: string, body: unknown, headers?: Record<string, string>) => api("POST", "/api/v1/sms/bulk", { token, body, headers });

describe("POST /api/v1/sms", () => {
  it("202: the bare Sms object, enqueued, priced, and held against the balance", async () => {
    const before = await footprint(acme.accountId);
    const call = await send(acme.token, { to: "0771234567", message: "Hello from Tumira", from: "ACME" });
    expect(call.status).toBe(202);
    const sms = smsSchema.parse(call.body); // strict: exactly the spec's fields
    expect(sms).toMatchObject({
      to: "+263771234567",
      message: "Hello from Tumira",
      sender_id: "ACME",
      operator: "econet",
      charge: String(ECONET),
      charge_currency: "USD",
      operator_response: "",
      status: "enqueued",
      delivered_at: null,
    });
    expect(typeof call.body.charge).toBe("string");
    expect(call.body).not.toHaveProperty("data");
    expect(Date.parse(sms.received_at)).not.toBeNaN();
    expect(sms.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/);

    const after = await footprint(acme.accountId);
    expect(after.balance).toBe(before.balance - ECONET);
    const stored = await db().message.findUniqueOrThrow({ where: { id: sms.id }, include: { ledger: true, events: true } });
    expect(stored).toMatchObject({
      status: "enqueued",
      segments: 1,
      encoding: "gsm7",
      test: false,
      apiKeyId: acme.keyId,
      operatorResponse: "",
    });
    expect(stored.ledger).toHaveLength(1);
    expect(stored.ledger[0]).toMatchObject({ kind: "hold", amount: -ECONET, actor: `key:${acme.keyId}`, balanceAfter: after.balance });
    expect(stored.events).toEqual([]); // "accepted" is the message's receivedAt
    expect(
      (await getMessageDetail(sms.id, { accountId: acme.accountId, test: false })).events.map((event) => [event.kind, event.createdAt]),
    ).toEqual([["accepted", stored.receivedAt.toISOString()]]);
  });

  it.each([
    ["+263711234567", "netone", NETONE],
    ["263731234567", "telecel", TELECEL],
    ["+263 78 123 4567", "econet", ECONET],
  ])("prices %s on %s at its carrier's rate", async (to, operator, rate) => {
    const call = await send(acme.token, { to, message: "Rate check", from: "ACME" });
    expect(call.status).toBe(202);
    expect(call.body).toMatchObject({ operator, charge: String(rate) });
  });

  it("charges segments × rate: a 2-part UCS-2 body, and an account's own rate over the default", async () => {
    const ucs2 = "Mhoro shamwari 😀 ".repeat(4); // 72 UTF-16 units → 2 parts of 67
    expect((await send(acme.token, { to: "+263771234567", message: ucs2, from: "ACME" })).body.charge).toBe(String(2n * ECONET));
    const custom = await seedAccount({ name: "Custom", senders: ["CUSTOM"] });
    await setRate({ operator: "netone", pricePerSegment: 123n, accountId: custom.accountId, actor: "test" });
    const call = await send(custom.token, { to: "+263711234567", message: "x".repeat(161), from: "CUSTOM" });
    expect(call.body.charge).toBe(String(2n * 123n));
  });

  it("400 legacy ERR_BAD_REQUEST when `from` is not an approved sender id (another account's, or pending)", async () => {
    await db().senderId.create({ data: { accountId: acme.accountId, name: "PENDING", status: "pending" } });
    for (const from of ["OTHER", "PENDING", "acme"]) {
      const before = await footprint(acme.accountId);
      const call = await send(acme.token, { to: "+263771234567", message: "hi", from });
      expectLegacyError(call, 400, "ERR_BAD_REQUEST");
      expect(call.body.error.description).toContain(from);
      expect(call.body.error.validation_errors).toEqual([{ field: "from", description: expect.stringMatching(/approved sender id/) }]);
      expect(await footprint(acme.accountId)).toEqual(before);
    }
  });

  it.each([
    ["malformed JSON", '{"to": "+263771234567",', "application/json"],
    [
      "JSON in Latin-1, not UTF-8",
      Buffer.from('{"to": "+263771234567", "message": "Caf\u00e9", "from": "ACME"}', "latin1"),
      "application/json",
    ],
    ["a JSON array", "[1, 2]", "application/json"],
    ["a JSON string", '"hello"', "application/json"],
    ["JSON sent as text/plain", JSON.stringify({ to: "+263771234567", message: "hi", from: "ACME" }), "text/plain"],
    ["a form body", "to=%2B263771234567&message=hi&from=ACME", "application/x-www-form-urlencoded"],
  ])("400 legacy ERR_BAD_REQUEST for %s, and nothing is written", async (_case, body, contentType) => {
    const before = await footprint(acme.accountId);
    const call = await send(acme.token, body, { "content-type": contentType });
    expectLegacyError(call, 400, "ERR_BAD_REQUEST");
    expect(await footprint(acme.accountId)).toEqual(before);
  });

  it.each([
    ["a landline", { to: "+263242123456" }, "to", /\+263242123456.*not a mobile number/],
    ["a foreign number", { to: "+27821234567" }, "to", /\+27821234567/],
    ["garbage", { to: "call me" }, "to", /"call me" is not a/],
    ["a number as a JSON number", { to: 263771234567 }, "to", /must be a string/],
    ["to missing", { to: undefined }, "to", /cannot be blank/],
    ["a blank message", { message: "   " }, "message", /cannot be blank/],
    ["an 11-part message", { message: "a".repeat(153 * 10 + 1) }, "message", /at most 10 parts/],
    ["an 11-part UCS-2 message", { message: "ŋ".repeat(67 * 10 + 1) }, "message", /at most 10 parts/],
    ["a blank from", { from: "" }, "from", /cannot be blank/],
    ["a NUL in the message", { message: "hi\u0000there" }, "message", /NUL characters or unpaired surrogates/],
    ["half a surrogate pair in the message", { message: "hi \ud83d" }, "message", /unpaired surrogates/],
    ["a NUL in from", { from: "AC\u0000ME" }, "from", /NUL characters/],
    ["a priority outside its list", { priority: "urgent" }, "priority", /^must be "normal" or "high"$/],
  ])("400 legacy naming the field for %s, and nothing is written", async (_case, change, field, description) => {
    const before = await footprint(acme.accountId);
    const call = await send(acme.token, { to: "+263771234567", message: "hi", from: "ACME", ...change });
    expectLegacyError(call, 400, "ERR_BAD_REQUEST");
    expect(call.body.error.validation_errors).toEqual([{ field, description: expect.stringMatching(description) }]);
    expect(await footprint(acme.accountId)).toEqual(before);
  });

  it("accepts exactly 10 parts", async () => {
    const call = await send(acme.token, { to: "+263771234567", message: "a".repeat(153 * 10), from: "ACME" });
    expect(call.status).toBe(202);
    expect(call.body.charge).toBe(String(10n * ECONET));
  });

  it("422 legacy when the balance does not cover the charge, and nothing is written", async () => {
    const poor = await seedAccount({ name: "Poor", balance: ECONET - 1n, senders: ["POOR"] });
    const before = await footprint(poor.accountId);
    const call = await send(poor.token, { to: "+263771234567", message: "hi", from: "POOR" });
    expectLegacyError(call, 422, "ERR_INSUFFICIENT_BALANCE");
    expect(await footprint(poor.accountId)).toEqual(before);
  });

  it("401 kit for a missing, malformed or revoked key", async () => {
    const missing = await api("POST", "/api/v1/sms", { body: { to: "+263771234567", message: "hi", from: "ACME" } });
    expectKitError(missing, 401, "UNAUTHORIZED");
    expect(missing.body.message).toBe(MISSING_AUTHENTICATION);
    expect(missing.body.error.description).toBe(MISSING_AUTHENTICATION);
    expectKitError(await send("tmr_live_not-a-key", { to: "+263771234567", message: "hi", from: "ACME" }), 401, "UNAUTHORIZED");
    const revoked = await createApiKey({ accountId: acme.accountId, name: "soon revoked", actor: "test" });
    await revokeApiKey({ accountId: acme.accountId, keyId: revoked.id, actor: "test" });
    const before = await footprint(acme.accountId);
    expectKitError(await send(revoked.token, { to: "+263771234567", message: "hi", from: "ACME" }), 401, "UNAUTHORIZED");
    expect(await footprint(acme.accountId)).toEqual(before);
  });

  it("test keys: priced and stored as test messages, the balance untouched", async () => {
    const testKey = await createApiKey({ accountId: acme.accountId, name: "sandbox", mode: "test", actor: "test" });
    const before = await footprint(acme.accountId);
    const call = await send(testKey.token, { to: "+263771234567", message: "sandbox", from: "ACME" });
    expect(call.status).toBe(202);
    expect(call.body.charge).toBe(String(ECONET));
    const after = await footprint(acme.accountId);
    expect(after).toEqual({ ...before, messages: before.messages + 1 });
    expect(await db().message.findUniqueOrThrow({ where: { id: call.body.id } })).toMatchObject({ test: true, status: "enqueued" });
  });
});

describe("GET /api/v1/sms/{id}", () => {
  it("200: the envelope with the fixed message and the Sms the send returned", async () => {
    const sent = await send(acme.token, { to: "+263771234567", message: "Read me back", from: "ACME" });
    const call = await api("GET", `/api/v1/sms/${sent.body.id}`, { token: acme.token });
    expect(call.status).toBe(200);
    const body = envelopeSchema(smsSchema).strict().parse(call.body);
    expect(body).toEqual({ status: "success", message: SMS_RETRIEVED, data: sent.body });
    // An upper-case UUID names the same message.
    expect((await api("GET", `/api/v1/sms/${sent.body.id.toUpperCase()}`, { token: acme.token })).body.data.id).toBe(sent.body.id);
  });

  it.each(["not-a-uuid", "12345", "bulk", "%27%20OR%201%3D1--"])("400 legacy ERR_BAD_REQUEST for the id %s", async (id) => {
    expectLegacyError(await api("GET", `/api/v1/sms/${id}`, { token: acme.token }), 400, "ERR_BAD_REQUEST");
  });

  it("404 legacy err_not_found for an unknown id and for another account's message, indistinguishably", async () => {
    const theirs = await send(other.token, { to: "+263771234567", message: "Not yours", from: "OTHER" });
    const unknown = await api("GET", "/api/v1/sms/7d444840-9dc0-11d1-b245-5ffdce74fad2", { token: acme.token });
    const foreign = await api("GET", `/api/v1/sms/${theirs.body.id}`, { token: acme.token });
    expectLegacyError(unknown, 404, "err_not_found");
    expect(unknown.body.error.description).toMatch(/does not exist/);
    expect(foreign.status).toBe(404);
    expect(foreign.text).toBe(unknown.text);
    // Its owner reads it.
    expect((await api("GET", `/api/v1/sms/${theirs.body.id}`, { token: other.token })).status).toBe(200);
  });

  it("404 legacy err_not_found for a message of the other mode: test keys read test messages, live keys live ones", async () => {
    const testKey = await createApiKey({ accountId: acme.accountId, name: "test reader", mode: "test", actor: "test" });
    const live = await send(acme.token, { to: "+263771234567", message: "Live", from: "ACME" });
    const test = await send(testKey.token, { to: "+263771234567", message: "Test", from: "ACME" });
    const unknown = await api("GET", "/api/v1/sms/7d444840-9dc0-11d1-b245-5ffdce74fad2", { token: acme.token });

    const liveByTest = await api("GET", `/api/v1/sms/${live.body.id}`, { token: testKey.token });
    const testByLive = await api("GET", `/api/v1/sms/${test.body.id}`, { token: acme.token });
    expectLegacyError(liveByTest, 404, "err_not_found");
    expectLegacyError(testByLive, 404, "err_not_found");
    expect(liveByTest.text).toBe(unknown.text);
    expect(testByLive.text).toBe(unknown.text);
    expect(liveByTest.text).not.toContain("Live");

    // Each mode reads its own.
    expect((await api("GET", `/api/v1/sms/${live.body.id}`, { token: acme.token })).body.data.message).toBe("Live");
    expect((await api("GET", `/api/v1/sms/${test.body.id}`, { token: testKey.token })).body.data.message).toBe("Test");
  });

  it("401 kit without a key", async () => {
    expectKitError(await api("GET", "/api/v1/sms/7d444840-9dc0-11d1-b245-5ffdce74fad2"), 401, "UNAUTHORIZED");
  });

  it("reads made together share one statement and each gets its own answer", async () => {
    const mine = await send(acme.token, { to: "+263771234567", message: "Mine", from: "ACME" });
    const theirs = await send(other.token, { to: "+263771234567", message: "Theirs", from: "OTHER" });
    const revoked = await createApiKey({ accountId: acme.accountId, name: "revoked reader", actor: "test" });
    await revokeApiKey({ accountId: acme.accountId, keyId: revoked.id, actor: "test" });
    const unknownId = "7d444840-9dc0-11d1-b245-5ffdce74fad2";
    const outcome = (read: Promise<SmsSource>) =>
      read.then(
        (message) => ({ id: message.id, body: message.body }),
        (error: AppError) => error.code,
      );
    // Called in one turn of the event loop, these are answered by one statement.
    const outcomes = await Promise.all([
      outcome(getMessageForApiKey(acme.keyId, mine.body.id)),
      outcome(getMessageForApiKey(acme.keyId, theirs.body.id)),
      outcome(getMessageForApiKey(other.keyId, theirs.body.id)),
      outcome(getMessageForApiKey(acme.keyId, unknownId)),
      outcome(getMessageForApiKey(revoked.id, mine.body.id)),
      outcome(getMessageForApiKey("no-such-key", mine.body.id)),
      outcome(getMessageForApiKey(acme.keyId, mine.body.id)),
    ]);
    expect(outcomes).toEqual([
      { id: mine.body.id, body: "Mine" },
      "NOT_FOUND",
      { id: theirs.body.id, body: "Theirs" },
      "NOT_FOUND",
      "UNAUTHORIZED",
      "UNAUTHORIZED",
      { id: mine.body.id, body: "Mine" },
    ]);
  });
});

describe("POST /api/v1/sms/bulk", () => {
  it("202: the envelope with integer charges, one item per recipient in request order, duplicates each sent", async () => {
    const to = ["+263771234567", "0711234567", "263731234567", "+263771234567", "0781234567"];
    const before = await footprint(acme.accountId);
    const call = await bulk(acme.token, { to, message: "Bulk hello", from: "ACME" });
    expect(call.status).toBe(202);
    const { data } = envelopeSchema(bulkSmsResultSchema).strict().parse(call.body);
    expect(call.body.status).toBe("success");
    expect(data.items.map((item) => item.to)).toEqual([
      "+263771234567",
      "+263711234567",
      "+263731234567",
      "+263771234567",
      "+263781234567",
    ]);
    expect(data.items.map((item) => item.operator)).toEqual(["econet", "netone", "telecel", "econet", "econet"]);
    expect(data.items.map((item) => item.charge)).toEqual([ECONET, NETONE, TELECEL, ECONET, ECONET].map(Number));
    expect(data.items.every((item) => item.status === "enqueued" && item.charge_currency === "USD")).toBe(true);
    expect(typeof call.body.data.charge).toBe("number");
    expect(typeof call.body.data.items[0].charge).toBe("number");
    expect(data).toMatchObject({ total: 5, currency: "USD", charge: Number(3n * ECONET + NETONE + TELECEL) });
    expect(new Set(data.items.map((item) => item.id)).size).toBe(5);

    const after = await footprint(acme.accountId);
    expect(after).toEqual({
      balance: before.balance - BigInt(data.charge),
      messages: before.messages + 5,
      ledger: before.ledger + 5,
      bulkSends: before.bulkSends + 1,
      events: before.events,
    });
    const bulkSend = await db().bulkSend.findFirstOrThrow({
      where: { accountId: acme.accountId },
      orderBy: { createdAt: "desc" },
      include: { messages: true },
    });
    expect(bulkSend).toMatchObject({ total: 5, charge: BigInt(data.charge), senderId: "ACME", body: "Bulk hello" });
    expect(bulkSend.messages).toHaveLength(5);
    // Each item reads back through the single-message endpoint.
    const read = await api("GET", `/api/v1/sms/${data.items[1].id}`, { token: acme.token });
    expect(read.body.data).toMatchObject({ to: "+263711234567", charge: String(NETONE), message: "Bulk hello" });
  });

  it("1,000 recipients: every item in order, the total the sum of the items", async () => {
    const to = Array.from({ length: 1000 }, (_, i) => `+26377${String(2000000 + i)}`);
    const call = await bulk(acme.token, { to, message: "A thousand", from: "ACME", webhook_url: "https://93.184.216.34/hooks" });
    expect(call.status).toBe(202);
    const { data } = envelopeSchema(bulkSmsResultSchema).parse(call.body);
    expect(data.total).toBe(1000);
    expect(data.items.map((item) => item.to)).toEqual(to);
    expect(data.charge).toBe(data.items.reduce((sum, item) => sum + item.charge, 0));
    const stored = await db().message.findUniqueOrThrow({ where: { id: data.items[999].id } });
    expect(stored.webhookUrl).toBe("https://93.184.216.34/hooks");
  });

  it("stores the webhook URL normalised (control characters percent-encoded)", async () => {
    const call = await bulk(acme.token, {
      to: ["+263771234567"],
      message: "hi",
      from: "ACME",
      webhook_url: "HTTPS://93.184.216.34/a\u0000b c",
    });
    expect(call.status).toBe(202);
    const stored = await db().message.findUniqueOrThrow({ where: { id: call.body.data.items[0].id } });
    expect(stored.webhookUrl).toBe("https://93.184.216.34/a%00b%20c");
  });

  it("400 kit VALIDATION_ERROR naming every failing field at once, and nothing is written", async () => {
    const before = await footprint(acme.accountId);
    const call = await bulk(acme.token, {
      to: ["+263771234567", "+263771234568", "+263771234569", "+27821234567", "0771234567", "nonsense"],
      message: " ",
      from: "",
    });
    expectKitError(call, 400, "VALIDATION_ERROR");
    expect(call.body.error.description).toMatch(/one or more fields failed validation/i);
    expect(call.body.error.validation_errors).toEqual([
      { field: "from", description: "cannot be blank" },
      { field: "message", description: "cannot be blank" },
      { field: "to[3]", description: expect.stringContaining("+27821234567") },
      { field: "to[5]", description: expect.stringContaining("nonsense") },
    ]);
    expect(await footprint(acme.accountId)).toEqual(before);
  });

  it.each([
    ["to missing", { to: undefined }, "to", /cannot be blank/],
    ["to empty", { to: [] }, "to", /at least one recipient/],
    ["to not an array", { to: "+263771234567" }, "to", /must be an array/],
    ["a recipient not a string", { to: ["+263771234567", 42] }, "to[1]", /must be a string/],
    ["message missing", { message: undefined }, "message", /cannot be blank/],
    ["webhook_url not a URL", { webhook_url: "not a url" }, "webhook_url", /valid http or https URL/],
    ["webhook_url not http(s)", { webhook_url: "ftp://example.com/hook" }, "webhook_url", /valid http or https URL/],
    ["webhook_url on loopback", { webhook_url: "http://127.0.0.1:8080/hook" }, "webhook_url", /private, loopback or link-local/],
    ["webhook_url on localhost", { webhook_url: "http://localhost/hook" }, "webhook_url", /private, loopback or link-local/],
    ["webhook_url at the metadata address", { webhook_url: "http://169.254.169.254/latest/meta-data" }, "webhook_url", /private/],
    ["webhook_url on a private network", { webhook_url: "https://10.1.2.3/hook" }, "webhook_url", /private/],
    ["webhook_url on IPv6 loopback", { webhook_url: "http://[::1]/hook" }, "webhook_url", /private/],
  ])("400 kit VALIDATION_ERROR for %s", async (_case, change, field, description) => {
    const before = await footprint(acme.accountId);
    const call = await bulk(acme.token, { to: ["+263771234567"], message: "hi", from: "ACME", ...change });
    expectKitError(call, 400, "VALIDATION_ERROR");
    expect(call.body.error.validation_errors).toEqual([{ field, description: expect.stringMatching(description) }]);
    expect(await footprint(acme.accountId)).toEqual(before);
  });

  it("400 kit naming `from` when it is not an approved sender id", async () => {
    const call = await bulk(acme.token, { to: ["+263771234567"], message: "hi", from: "OTHER" });
    expectKitError(call, 400, "BAD_REQUEST");
    expect(call.body.error.validation_errors).toEqual([{ field: "from", description: expect.stringMatching(/approved sender id/) }]);
  });

  it("400 kit for malformed JSON and a non-JSON Content-Type", async () => {
    expectKitError(await bulk(acme.token, "{nope", { "content-type": "application/json" }), 400, "BAD_REQUEST");
    expectKitError(
      await bulk(acme.token, JSON.stringify({ to: ["+263771234567"], message: "hi", from: "ACME" }), { "content-type": "text/plain" }),
      400,
      "BAD_REQUEST",
    );
  });

  it("400 for 100,001 recipients; 100,000 is the documented maximum", async () => {
    const before = await footprint(acme.accountId);
    const to = Array.from({ length: 100_001 }, () => "+263771234567");
    const call = await bulk(acme.token, { to, message: "too many", from: "ACME" });
    expectKitError(call, 400, "VALIDATION_ERROR");
    expect(call.body.error.validation_errors).toEqual([{ field: "to", description: "must contain at most 100000 recipients" }]);
    expect(await footprint(acme.accountId)).toEqual(before);
  });

  it("lists the first 100 invalid recipients and counts the rest", async () => {
    const call = await bulk(acme.token, { to: Array.from({ length: 150 }, (_, i) => `bad-${i}`), message: "hi", from: "ACME" });
    expectKitError(call, 400, "VALIDATION_ERROR");
    const errors = call.body.error.validation_errors as { field: string; description: string }[];
    expect(errors).toHaveLength(101);
    expect(errors[99].field).toBe("to[99]");
    expect(errors[100]).toEqual({ field: "to", description: "150 recipients are invalid; the first 100 are listed" });
  });

  it("422 kit UNPROCESSABLE_ENTITY when the balance does not cover the whole send: nothing created or held", async () => {
    const poor = await seedAccount({ name: "Poor bulk", balance: 3n * ECONET - 1n, senders: ["POOR"] });
    const before = await footprint(poor.accountId);
    const call = await bulk(poor.token, { to: ["+263771234567", "+263771234568", "+263771234569"], message: "hi", from: "POOR" });
    expectKitError(call, 422, "UNPROCESSABLE_ENTITY");
    expect(await footprint(poor.accountId)).toEqual(before);
    // Two of the three are covered: that send goes through.
    expect((await bulk(poor.token, { to: ["+263771234567", "+263771234568"], message: "hi", from: "POOR" })).status).toBe(202);
  });

  it("401 kit without a key or with a revoked one", async () => {
    expectKitError(
      await api("POST", "/api/v1/sms/bulk", { body: { to: ["+263771234567"], message: "hi", from: "ACME" } }),
      401,
      "UNAUTHORIZED",
    );
    const revoked = await createApiKey({ accountId: acme.accountId, name: "revoked bulk", actor: "test" });
    await revokeApiKey({ accountId: acme.accountId, keyId: revoked.id, actor: "test" });
    expectKitError(await bulk(revoked.token, { to: ["+263771234567"], message: "hi", from: "ACME" }), 401, "UNAUTHORIZED");
  });
});
