// Opt-out lists over real HTTP on a real server process: the list endpoints and their errors, a single
// send to an opted-out number refused with no message and no ledger row, a bulk send that skips it and
// says so, and a removal that lets it through again. Numbers match however they were written.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createApiKey } from "@/lib/keys/create-api-key";
import { bareEnvelopeSchema, envelopeSchema } from "@/lib/api/response-schemas";
import { optOutPageSchema, optOutSchema } from "@/lib/api/opt-outs/opt-out-schemas";
import { bulkSmsResultSchema } from "@/lib/api/sms/sms-schemas";
import {
  callApi,
  expectKitError,
  expectLegacyError,
  seedAccount,
  startApiServer,
  useApiServer,
  type SeededAccount,
} from "../helpers/api-test-server";
import type { ServerProcess } from "../helpers/server-process";

const { api, database } = useApiServer();

let acme: SeededAccount;
let other: SeededAccount;
let acmeTestToken: string;

beforeAll(async () => {
  acme = await seedAccount({ name: "Acme" });
  other = await seedAccount({ name: "Other" });
  acmeTestToken = (await createApiKey({ accountId: acme.accountId, name: "sandbox", mode: "test", actor: "test" })).token;
});

const ledgerRows = (accountId: string) => db().ledgerEntry.count({ where: { accountId } });
const messagesTo = (accountId: string, to: string) => db().message.count({ where: { accountId, to } });

describe("the opt-out endpoints", () => {
  it("adds a number written in any form as E.164, idempotently, and records who added it", async () => {
    const added = await api("POST", "/api/v1/opt-outs", { token: acme.token, body: { number: "077 200 0001" } });
    expect(added.status).toBe(201);
    const body = envelopeSchema(optOutSchema.strict()).strict().parse(added.body);
    expect(body.data).toMatchObject({ number: "+263772000001", created_by: `key:${acme.keyId}` });

    const again = await api("POST", "/api/v1/opt-outs", { token: acme.token, body: { number: "263772000001" } });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(body.data);
    expect(await db().optOut.count({ where: { accountId: acme.accountId } })).toBe(1);
    const events = await db().auditEvent.findMany({ where: { accountId: acme.accountId, action: "opt_out.added" } });
    expect(events.map((event) => [event.targetId, event.actor])).toEqual([["+263772000001", `key:${acme.keyId}`]]);
  });

  it.each([
    ["missing", {}, "number"],
    ["not a phone number", { number: "hello" }, "number"],
    ["a landline", { number: "+263242700000" }, "number"],
    ["a number of another country", { number: "+14155550100" }, "number"],
  ])("400 VALIDATION_ERROR naming `number` when it is %s", async (_case, requestBody, field) => {
    const call = await api("POST", "/api/v1/opt-outs", { token: acme.token, body: requestBody });
    expectKitError(call, 400, "VALIDATION_ERROR");
    expect(call.body.error.validation_errors.map((error: { field: string }) => error.field)).toEqual([field]);
  });

  it("lists newest first in pages joined by a cursor, one list for the account's test and live keys", async () => {
    await api("POST", "/api/v1/opt-outs", { token: acmeTestToken, body: { number: "+263712000002" } });
    await api("POST", "/api/v1/opt-outs", { token: acme.token, body: { number: "0732000003" } });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `?limit=2&cursor=${encodeURIComponent(cursor)}` : "?limit=2";
      const page = await api("GET", `/api/v1/opt-outs${query}`, { token: acmeTestToken });
      expect(page.status).toBe(200);
      const data = envelopeSchema(optOutPageSchema).parse(page.body).data;
      expect(data.items.length).toBeLessThanOrEqual(2);
      seen.push(...data.items.map((item) => item.number));
      cursor = data.next_cursor;
    } while (cursor);
    expect(seen.sort()).toEqual(["+263712000002", "+263732000003", "+263772000001"]);
    const otherList = await api("GET", "/api/v1/opt-outs", { token: other.token });
    expect(otherList.body.data).toEqual({ items: [], next_cursor: null });
  });

  it("400 naming `limit` or `cursor` when they are not ones it takes", async () => {
    const limit = await api("GET", "/api/v1/opt-outs?limit=0", { token: acme.token });
    expectKitError(limit, 400, "VALIDATION_ERROR");
    expect(limit.body.error.validation_errors[0].field).toBe("limit");
    const cursor = await api("GET", "/api/v1/opt-outs?cursor=bogus", { token: acme.token });
    expectKitError(cursor, 400, "VALIDATION_ERROR");
    expect(cursor.body.error.validation_errors[0].field).toBe("cursor");
    const farCursor = Buffer.from(JSON.stringify(["+275760-09-13T00:00:00.000Z", "+263771234567"])).toString("base64url");
    const far = await api("GET", `/api/v1/opt-outs?cursor=${farCursor}`, { token: acme.token });
    expectKitError(far, 400, "VALIDATION_ERROR");
    expect(far.body.error.validation_errors[0].field).toBe("cursor");
    const nulCursor = Buffer.from(JSON.stringify(["2026-01-01T00:00:00.000Z", "+26377\u0000"])).toString("base64url");
    const nul = await api("GET", `/api/v1/opt-outs?cursor=${nulCursor}`, { token: acme.token });
    expectKitError(nul, 400, "VALIDATION_ERROR");
    expect(nul.body.error.validation_errors[0].field).toBe("cursor");
    const both = await api("GET", "/api/v1/opt-outs?limit=501&cursor=bogus", { token: acme.token });
    expect(both.body.error.validation_errors.map((error: { field: string }) => error.field)).toEqual(["limit", "cursor"]);
    const repeated = await api("GET", "/api/v1/opt-outs?limit=2&limit=3", { token: acme.token });
    expectKitError(repeated, 400, "VALIDATION_ERROR");
    expect(repeated.body.error.validation_errors).toEqual([{ field: "limit", description: "must be given once" }]);
  });

  it("DELETE: 404 for a number not on the list, 400 naming `number` for no phone number, 401 without a key", async () => {
    expectKitError(await api("DELETE", "/api/v1/opt-outs/%2B263779999999", { token: acme.token }), 404, "NOT_FOUND");
    const invalid = await api("DELETE", "/api/v1/opt-outs/abc", { token: acme.token });
    expectKitError(invalid, 400, "VALIDATION_ERROR");
    expect(invalid.body.error.validation_errors[0].field).toBe("number");
    expectKitError(await api("GET", "/api/v1/opt-outs"), 401, "UNAUTHORIZED");
  });
});

describe("sends to opted-out numbers", () => {
  const number = "+263772100001";

  beforeAll(async () => {
    expect((await api("POST", "/api/v1/opt-outs", { token: acme.token, body: { number: "0772100001" } })).status).toBe(201);
  });

  it("refuses a single send with a legacy 422 naming `to`, writing no message and no ledger row", async () => {
    for (const [token, to] of [
      [acme.token, number],
      [acme.token, "263 77 210 0001"],
      [acmeTestToken, "0772100001"],
    ]) {
      const ledgerBefore = await ledgerRows(acme.accountId);
      const call = await api("POST", "/api/v1/sms", { token, body: { to, message: "Hello", from: "ACME" } });
      expectLegacyError(call, 422, "ERR_RECIPIENT_OPTED_OUT");
      expect(call.body.error.validation_errors).toEqual([{ field: "to", description: `${number} is on this account's opt-out list` }]);
      expect(await ledgerRows(acme.accountId)).toBe(ledgerBefore);
    }
    expect(await messagesTo(acme.accountId, number)).toBe(0);
  });

  it("sends to the number from another account, whose list does not have it", async () => {
    const call = await api("POST", "/api/v1/sms", { token: other.token, body: { to: number, message: "Hello", from: "ACME" } });
    expect(call.status).toBe(202);
  });

  it("skips it in a bulk send: the others are sent and charged, the response lists the skipped one", async () => {
    const ledgerBefore = await ledgerRows(acme.accountId);
    const call = await api("POST", "/api/v1/sms/bulk", {
      token: acme.token,
      body: { to: ["+263772100002", "0772100001", "+263712100003"], message: "Hello all", from: "ACME" },
    });
    expect(call.status).toBe(202);
    const data = envelopeSchema(bulkSmsResultSchema).parse(call.body).data;
    expect(data.total).toBe(2);
    expect(data.items.map((item) => item.to)).toEqual(["+263772100002", "+263712100003"]);
    expect(data.opted_out).toEqual([{ index: 1, to: number }]);
    expect(data.charge).toBe(data.items.reduce((sum, item) => sum + item.charge, 0));
    expect(await ledgerRows(acme.accountId)).toBe(ledgerBefore + 2);
    expect(await messagesTo(acme.accountId, number)).toBe(0);
  });

  it("refuses a bulk send whose every recipient opted out with a kit 422 naming each", async () => {
    const call = await api("POST", "/api/v1/sms/bulk", { token: acme.token, body: { to: ["0772100001"], message: "Hi", from: "ACME" } });
    expectKitError(call, 422, "RECIPIENT_OPTED_OUT");
    expect(call.body.error.validation_errors.map((error: { field: string }) => error.field)).toEqual(["to[0]"]);
  });

  it("keeps a bulk answer without opt-outs as it was: no `opted_out` field", async () => {
    const call = await api("POST", "/api/v1/sms/bulk", { token: acme.token, body: { to: ["+263772100009"], message: "Hi", from: "ACME" } });
    expect(call.status).toBe(202);
    expect(Object.keys(call.body.data).sort()).toEqual(["bulk_id", "charge", "currency", "items", "total"]);
  });

  it("lets sends through again once the number is removed, and records the removal", async () => {
    const removed = await api("DELETE", `/api/v1/opt-outs/${encodeURIComponent("0772100001")}`, { token: acme.token });
    expect(removed.status).toBe(200);
    bareEnvelopeSchema.strict().parse(removed.body);
    const call = await api("POST", "/api/v1/sms", { token: acme.token, body: { to: number, message: "Welcome back", from: "ACME" } });
    expect(call.status).toBe(202);
    expect(call.body.to).toBe(number);
    expect(await messagesTo(acme.accountId, number)).toBe(1);
    const removal = await db().auditEvent.findFirst({ where: { accountId: acme.accountId, action: "opt_out.removed", targetId: number } });
    expect(removal?.actor).toBe(`key:${acme.keyId}`);
  });
});

describe("opt-outs across processes and concurrent sends", () => {
  let second: ServerProcess;
  beforeAll(async () => {
    second = await startApiServer(database());
  });
  afterAll(async () => {
    await second.kill();
  });

  it("an opt-out added through one process refuses the very next send through another", async () => {
    const number = "+263782200001";
    // The second process has sent with this key before: its key is cached.
    const warm = await callApi(second.url, "POST", "/api/v1/sms", { token: acme.token, body: { to: number, message: "Hi", from: "ACME" } });
    expect(warm.status).toBe(202);
    expect((await api("POST", "/api/v1/opt-outs", { token: acme.token, body: { number } })).status).toBe(201);
    const refused = await callApi(second.url, "POST", "/api/v1/sms", {
      token: acme.token,
      body: { to: number, message: "Hi", from: "ACME" },
    });
    expectLegacyError(refused, 422, "ERR_RECIPIENT_OPTED_OUT");
  });

  it("refuses only the opted-out send among concurrent single sends", async () => {
    await api("POST", "/api/v1/opt-outs", { token: acme.token, body: { number: "+263772300000" } });
    const recipients = Array.from({ length: 8 }, (_, index) => `+26377230000${index}`);
    const calls = await Promise.all(
      recipients.map((to) => api("POST", "/api/v1/sms", { token: acme.token, body: { to, message: "Together", from: "ACME" } })),
    );
    expect(calls.map((call) => call.status)).toEqual([422, 202, 202, 202, 202, 202, 202, 202]);
    expect(await messagesTo(acme.accountId, "+263772300000")).toBe(0);
    for (const to of recipients.slice(1)) expect(await messagesTo(acme.accountId, to)).toBe(1);
  });
});
