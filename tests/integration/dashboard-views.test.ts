// Test and live data apart: each dashboard query of an account user reads one view, live (live keys
// and what they sent) or test (test keys and their messages), and never shows the other's rows.
import { beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "@/lib/accounts/create-account";
import { createApiKey } from "@/lib/keys/create-api-key";
import { acceptMessages } from "@/lib/messages/accept-messages";
import { getAccountStats } from "@/lib/dashboard/get-account-stats";
import { getMessageDetail } from "@/lib/dashboard/get-message-detail";
import { getBulkReport } from "@/lib/dashboard/get-bulk-report";
import { listKeyRows } from "@/lib/dashboard/list-key-rows";
import { listMessages } from "@/lib/dashboard/list-messages";
import { readInView } from "@/lib/dashboard/message-scope";
import { useTestDatabase } from "../helpers/test-database";

useTestDatabase();

let accountId: string;
let liveSingle: string;
let testSingle: string;
let liveBulk: string;
let testBulk: string;

beforeAll(async () => {
  accountId = (await createAccount({ name: "Views", currency: "USD", openingBalance: 1_000_000n, senders: ["VIEWS"], actor: "test" })).id;
  await createApiKey({ accountId, name: "production", actor: "test" });
  await createApiKey({ accountId, name: "sandbox one", mode: "test", actor: "test" });
  await createApiKey({ accountId, name: "sandbox two", mode: "test", actor: "test" });
  const send = (mode: "live" | "test", kind: "single" | "bulk", recipients: string[]) =>
    acceptMessages({ accountId, from: "VIEWS", body: `${mode} ${kind}`, recipients, actor: "test", mode, kind });
  liveSingle = (await send("live", "single", ["0771000001"])).messages[0].id;
  testSingle = (await send("test", "single", ["0771000002"])).messages[0].id;
  liveBulk = (await send("live", "bulk", ["0771000003", "0771000004"])).messages[0].id;
  testBulk = (await send("test", "bulk", ["0771000005", "0771000006", "0771000007"])).messages[0].id;
});

describe("the live and test views", () => {
  it("list each view's messages only", async () => {
    const live = await listMessages(accountId, {}, "live");
    const test = await listMessages(accountId, {}, "test");
    expect(live.rows.map((row) => row.bodyPreview).sort()).toEqual(["live bulk", "live bulk", "live single"]);
    expect(test.rows.map((row) => row.bodyPreview).sort()).toEqual(["test bulk", "test bulk", "test bulk", "test single"]);
    expect(live.rows.every((row) => !row.test)).toBe(true);
    expect(test.rows.every((row) => row.test)).toBe(true);
  });

  it("count each view's messages in the overview; the test view spends nothing", async () => {
    const live = await getAccountStats(accountId, "live");
    const test = await getAccountStats(accountId, "test");
    expect(live.totals.messages).toBe(3);
    expect(test.totals.messages).toBe(4);
    expect(live.totals.spend).toBeGreaterThan(0n);
    expect(test.totals.spend).toBe(0n);
    expect(test.days.every((day) => day.spend === 0n)).toBe(true);
  });

  it("list each view's keys only", async () => {
    expect((await listKeyRows(accountId, "live")).map((key) => key.name)).toEqual(["production"]);
    expect((await listKeyRows(accountId, "test")).map((key) => key.name).sort()).toEqual(["sandbox one", "sandbox two"]);
  });

  it("open a message or a bulk send in its own view, and say when it is in the other one", async () => {
    const live = { accountId, test: false };
    const test = { accountId, test: true };
    expect((await getMessageDetail(liveSingle, live)).test).toBe(false);
    expect((await getMessageDetail(testSingle, test)).test).toBe(true);
    await expect(getMessageDetail(testSingle, live)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(getMessageDetail(liveSingle, test)).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await readInView(live, (scope) => getMessageDetail(testSingle, scope))).toBe("other-view");
    expect(await readInView(test, (scope) => getMessageDetail(liveSingle, scope))).toBe("other-view");
    expect(await readInView(live, (scope) => getMessageDetail("00000000-0000-4000-8000-000000000000", scope))).toBeNull();
    // Platform staff read any message, test or live.
    expect((await getMessageDetail(testSingle, { platform: true })).test).toBe(true);

    const liveBulkId = (await getMessageDetail(liveBulk, live)).bulkSendId!;
    const testBulkId = (await getMessageDetail(testBulk, test)).bulkSendId!;
    expect((await getBulkReport(liveBulkId, live)).total).toBe(2);
    expect((await getBulkReport(testBulkId, test)).total).toBe(3);
    await expect(getBulkReport(testBulkId, live)).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await readInView(live, (scope) => getBulkReport(testBulkId, scope))).toBe("other-view");
    const other = (await createAccount({ name: "Other", currency: "USD", openingBalance: 0n, actor: "test" })).id;
    expect(await readInView({ accountId: other, test: true }, (scope) => getBulkReport(testBulkId, scope))).toBeNull();
  });
});
