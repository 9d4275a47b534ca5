// A bulk send's report and the grouped ledger, over real SMPP: the simulator delivers some
// recipients and fails others (the last four digits choose), and the report's figures, the
// recipients CSV and the balance page's ledger are read back through the dashboard's queries.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { startDeliveryServices } from "@/lib/delivery/start-delivery-services";
import { stopBackgroundServices, type BackgroundService } from "@/lib/delivery/background-services";
import { bulkRecipientsCsv, getBulkReport, RECIPIENT_CSV_COLUMNS } from "@/lib/dashboard/get-bulk-report";
import { ledgerCsv, listLedger, type LedgerBulkGroup } from "@/lib/dashboard/list-ledger";
import { useTestDatabase } from "../helpers/test-database";
import {
  carrierUrls,
  createSendingAccount,
  expectLedgerBalanced,
  send,
  setEnv,
  startTestSimulator,
  waitForFinal,
  type TestSimulator,
} from "../helpers/delivery";

useTestDatabase();

let simulator: TestSimulator;
let services: BackgroundService[] = [];

// Econet delivers three and fails three (two UNDELIV receipts, one REJECTD); NetOne delivers one
// and refuses one at submit (ESME_RINVDSTADR); Telecel delivers one.
const RECIPIENTS = [
  "+263771230010",
  "+263771230020",
  "+263771230030",
  "+263771230001",
  "+263771240001",
  "+263781230002",
  "+263712340010",
  "+263712340005",
  "+263732340010",
];

let accountId: string;
let otherAccountId: string;
let bulkSendId: string;
let singleId: string;

async function collect(lines: AsyncGenerator<string>): Promise<string> {
  let text = "";
  for await (const chunk of lines) text += chunk;
  return text;
}

beforeAll(async () => {
  simulator = await startTestSimulator({ dlrDelayMs: 20 });
  setEnv({ ...carrierUrls(simulator.port), SMSC_SIMULATOR_DLR_DELAY_MS: "20" });
  services = await startDeliveryServices(
    { dispatcher: true, simulator: false },
    { dispatcher: { pollMs: 50, retryPolicy: { maxAttempts: 3, baseDelayMs: 50, maxDelayMs: 200 } }, receipts: { retryMs: 100 } },
  );
  accountId = await createSendingAccount(1_000_000n, "Campaigner");
  otherAccountId = await createSendingAccount(1_000_000n, "Someone else");
  const ids = await send(accountId, RECIPIENTS, "Harvest festival on Saturday");
  [singleId] = await send(accountId, ["+263771239999"], "One on its own");
  await waitForFinal([...ids, singleId], { delivered: false });
  // Every receipt of a delivered message has arrived too.
  await waitForFinal(
    (await db().message.findMany({ where: { id: { in: ids }, status: "success" } })).map((message) => message.id),
    { delivered: true },
  );
  bulkSendId = (await db().message.findUniqueOrThrow({ where: { id: ids[0] } })).bulkSendId!;
});

afterAll(async () => {
  await stopBackgroundServices(services);
  await simulator?.stop();
});

describe("bulk send report", () => {
  it("counts the bulk's messages per state and per carrier", async () => {
    const report = await getBulkReport(bulkSendId, { accountId, test: false });
    expect(report.total).toBe(9);
    expect(report.counts).toEqual({ scheduled: 0, queued: 0, sending: 0, sent: 0, delivered: 5, failed: 4 });
    expect(report.carriers.map((carrier) => [carrier.name, carrier.counts.delivered, carrier.counts.failed, carrier.total])).toEqual([
      ["Econet", 3, 3, 6],
      ["NetOne", 1, 1, 2],
      ["Telecel", 1, 0, 1],
    ]);
  });

  it("sums the holds and the refunds of the bulk's messages, and nets them", async () => {
    const report = await getBulkReport(bulkSendId, { accountId, test: false });
    const messages = await db().message.findMany({ where: { bulkSendId } });
    const charged = messages.reduce((sum, message) => sum + message.charge, 0n);
    const failedCharge = messages.filter((message) => message.status === "failed").reduce((sum, message) => sum + message.charge, 0n);
    expect(charged).toBeGreaterThan(0n);
    expect(report.held).toBe(charged);
    expect(report.refunded).toBe(failedCharge);
    expect(report.refundCount).toBe(4);
    expect(report.net).toBe(charged - failedCharge);
    await expectLedgerBalanced(accountId);
  });

  it("groups failures by carrier code with plain words", async () => {
    const report = await getBulkReport(bulkSendId, { accountId, test: false });
    expect(report.failures).toEqual([
      { code: "UNDELIV", words: "The carrier could not deliver it to the handset", count: 2 },
      { code: "ESME_RINVDSTADR", words: "The carrier says the number is not valid", count: 1 },
      { code: "REJECTD", words: "The carrier rejected it", count: 1 },
    ]);
  });

  it("counts the states reached over time, each message once per state", async () => {
    const report = await getBulkReport(bulkSendId, { accountId, test: false });
    expect(report.timelineUnit).toBe("minute");
    const sum = (state: "sent" | "delivered" | "failed") => report.timeline.reduce((total, bucket) => total + bucket[state], 0);
    expect(sum("delivered")).toBe(5);
    expect(sum("failed")).toBe(4);
    // Sent: every message the carrier accepted that did not fail afterwards.
    expect(sum("sent")).toBe(5);
  });

  it("shows the body to the account and hides it from platform staff", async () => {
    expect((await getBulkReport(bulkSendId, { accountId, test: false })).body).toBe("Harvest festival on Saturday");
    const staffView = await getBulkReport(bulkSendId, { platform: true });
    expect(staffView.body).toBeNull();
    expect(staffView.counts.delivered).toBe(5);
  });

  it("reads another account's bulk send as not found", async () => {
    await expect(getBulkReport(bulkSendId, { accountId: otherAccountId, test: false })).rejects.toSatisfy(
      (error) => error instanceof AppError && error.code === "NOT_FOUND",
    );
    await expect(collect(bulkRecipientsCsv(bulkSendId, { accountId: otherAccountId, test: false }))).rejects.toSatisfy(
      (error) => error instanceof AppError && error.code === "NOT_FOUND",
    );
  });

  it("writes every recipient's outcome to the recipients CSV", async () => {
    const lines = (await collect(bulkRecipientsCsv(bulkSendId, { accountId, test: false }))).trimEnd().split("\r\n");
    expect(lines[0]).toBe(RECIPIENT_CSV_COLUMNS.join(","));
    expect(lines).toHaveLength(RECIPIENTS.length + 1);
    const rows = lines
      .slice(1)
      .map((line) => Object.fromEntries(line.split(",").map((value, index) => [RECIPIENT_CSV_COLUMNS[index], value])));
    // A leading + is quoted so that a spreadsheet reads the number as text.
    expect(rows.map((row) => row.to).sort()).toEqual(RECIPIENTS.map((to) => `'${to}`).sort());
    const refused = rows.find((row) => row.to === "'+263712340005")!;
    expect(refused).toMatchObject({
      carrier: "NetOne",
      outcome: "Failed",
      code: "ESME_RINVDSTADR",
      reason: "The carrier says the number is not valid",
    });
    expect(refused.refunded).toBe(refused.charge);
    const delivered = rows.find((row) => row.to === "'+263732340010")!;
    expect(delivered).toMatchObject({ carrier: "Telecel", outcome: "Delivered", code: "", refunded: "0.0000" });
    expect(delivered.delivered_at).not.toBe("");
  });
});

describe("grouped ledger", () => {
  it("shows the bulk send as one row of its holds and refunds, and single sends as their own rows", async () => {
    const report = await getBulkReport(bulkSendId, { accountId, test: false });
    const { rows } = await listLedger(accountId, {});
    const groups = rows.filter((row): row is LedgerBulkGroup => row.type === "bulk");
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({ bulkSendId, messages: 9, held: -report.held, refunds: 4, refunded: report.refunded });
    const entries = rows.filter((row) => row.type === "entry");
    expect(entries.map((row) => row.kind).sort()).toEqual(["credit", "hold"]);
    expect(entries.find((row) => row.kind === "hold")?.messageId).toBe(singleId);
    const everyRow = await listLedger(accountId, { rows: "each" });
    // Opening credit, ten holds, four refunds.
    expect(everyRow.rows).toHaveLength(15);
    expect(everyRow.rows.every((row) => row.type === "entry")).toBe(true);
  });

  it("keeps the bulk send's row under the hold and release kinds, not under credits", async () => {
    expect((await listLedger(accountId, { kind: "credit" })).rows.map((row) => row.type)).toEqual(["entry"]);
    expect((await listLedger(accountId, { kind: "release" })).rows.map((row) => row.type)).toEqual(["bulk"]);
    expect((await listLedger(accountId, { kind: "hold" })).rows.map((row) => row.type).sort()).toEqual(["bulk", "entry"]);
  });

  it("pages grouped rows by their first hold", async () => {
    const first = await listLedger(accountId, {});
    expect(first.nextBefore).toBeNull();
    const group = first.rows.find((row) => row.type === "bulk")!;
    const older = await listLedger(accountId, { before: group.id });
    expect(older.rows.some((row) => row.type === "bulk")).toBe(false);
    const newer = await listLedger(accountId, { before: group.id + 1 });
    expect(newer.rows.some((row) => row.type === "bulk")).toBe(true);
  });

  it("exports every entry of the filters as CSV, with each refund's bulk send", async () => {
    const lines = (await collect(ledgerCsv(accountId, "USD", { kind: "release" }))).trimEnd().split("\r\n");
    expect(lines[0]).toBe("id,created_at,kind,amount,balance_after,currency,message_id,bulk_id,reason,actor");
    expect(lines).toHaveLength(5);
    for (const line of lines.slice(1)) {
      const values = line.split(",");
      expect(values[2]).toBe("release");
      expect(values[7]).toBe(bulkSendId);
      expect(Number(values[3])).toBeGreaterThan(0);
    }
    const all = (await collect(ledgerCsv(accountId, "USD", {}))).trimEnd().split("\r\n");
    expect(all).toHaveLength(16);
    // Holds are plain negative numbers a spreadsheet sums, not guarded text; actors read as in the audit log.
    const holds = all
      .slice(1)
      .map((line) => line.split(","))
      .filter((values) => values[2] === "hold");
    expect(holds.length).toBeGreaterThan(0);
    for (const values of holds) expect(values[3]).toMatch(/^-\d+\.\d{4}$/);
    const releases = all
      .slice(1)
      .map((line) => line.split(","))
      .filter((values) => values[2] === "release");
    expect(releases.map((values) => values[9])).toEqual(["Tumira", "Tumira", "Tumira", "Tumira"]);
  });
});
