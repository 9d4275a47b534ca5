// The store edge's row parsers: each engine's representation of a column gives the same typed value,
// and a row that is not what its statement says fails naming the column.
import { describe, expect, it } from "vitest";
import { parseId, parseMessageRow, parseRow, parseRowOrNull, parseRows } from "@/lib/db/stores/shared/rows";

const SHAPE = { amount: "bigint", count: "integer", active: "boolean", at: "time", note: "text?", limit: "integer?" } as const;

describe("parseRow", () => {
  it("reads SQLite's and PostgreSQL's forms of a column as one typed value", () => {
    const sqlite = { amount: 350, count: 2, active: 1, at: "2026-01-02T03:04:05.006+00:00", note: null, limit: null };
    const postgres = { amount: "350", count: "2", active: true, at: new Date("2026-01-02T03:04:05.006Z"), note: undefined, limit: 60 };
    const expected = { amount: 350n, count: 2, active: true, at: new Date("2026-01-02T03:04:05.006Z"), note: null, limit: null };
    expect(parseRow(sqlite, SHAPE)).toEqual(expected);
    expect(parseRow(postgres, SHAPE)).toEqual({ ...expected, limit: 60 });
    expect(parseRow({ amount: -9007199254740993n }, { amount: "bigint" }).amount).toBe(-9007199254740993n);
  });

  it("fails naming the column that is not what the shape says", () => {
    expect(() => parseRow({ amount: "3.5" }, { amount: "bigint" })).toThrow("column amount: expected bigint");
    expect(() => parseRow({ active: "yes" }, { active: "boolean" })).toThrow("column active: expected boolean");
    expect(() => parseRow({ note: null }, { note: "text" })).toThrow("column note: expected text, got null");
    expect(() => parseRow({}, { at: "time" })).toThrow("column at: expected time");
  });

  it("parses many rows, none, and ids", () => {
    expect(parseRows([{ id: "a" }, { id: "b" }], { id: "text" })).toEqual([{ id: "a" }, { id: "b" }]);
    expect(parseRowOrNull(undefined, { id: "text" })).toBeNull();
    expect(parseId({ id: "m-1", other: 1 })).toBe("m-1");
  });

  it("parses a whole Message row as the Prisma Client returns it", () => {
    const at = "2026-01-02T03:04:05.006+00:00";
    const row = {
      id: "m-1",
      accountId: "a-1",
      apiKeyId: null,
      userId: null,
      bulkSendId: null,
      to: "+263771234567",
      body: "Mhoro",
      senderId: "DEMO",
      operator: "econet",
      charge: 350,
      currency: "USD",
      segments: 1,
      encoding: "gsm7",
      status: "success",
      operatorResponse: "ESME_ROK",
      webhookUrl: null,
      test: 0,
      attempts: 1,
      mayBeAtCarrier: 1,
      carrierMessageId: "c-1",
      nextAttemptAt: at,
      leaseOwner: null,
      leaseUntil: null,
      lastError: null,
      receivedAt: at,
      createdAt: at,
      updatedAt: at,
      dispatchedAt: at,
      deliveredAt: null,
      finishedAt: at,
      priority: "normal",
      sendAt: null,
      validityPeriod: 3600,
      expiresAt: null,
      turn: 1_764_253_508_005,
    };
    const message = parseMessageRow(row);
    expect(message).toMatchObject({
      charge: 350n,
      test: false,
      mayBeAtCarrier: true,
      validityPeriod: 3600,
      deliveredAt: null,
      turn: 1_764_253_508_005n,
    });
    expect(message.receivedAt).toEqual(new Date(at));
  });
});
